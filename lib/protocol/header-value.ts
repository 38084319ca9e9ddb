/**
 * How a mirrored header's value is read (DIGEST c.2): a value is base64-wrapped only when it starts with exactly
 * `=?base64?` and ends with exactly `?=` (lower case); anything else is a literal. Inside the wrapper the
 * base64 must be strict RFC 4648 (alphabet, length a multiple of 4, correct padding) and decode to valid UTF-8.
 * Plain values may hold visible ASCII, space and tab only.
 */
export type HeaderValue = { ok: true; value: string } | { ok: false; problem: string };

const PREFIX = '=?base64?';
const SUFFIX = '?=';
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const ALLOWED = /^[\x20-\x7e\t]*$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes one header value, or says why it is malformed. */
export function decodeHeaderValue(raw: string): HeaderValue {
  if (!ALLOWED.test(raw)) return { ok: false, problem: 'contains characters outside visible ASCII, space and tab' };
  if (raw.length < PREFIX.length + SUFFIX.length || !raw.startsWith(PREFIX) || !raw.endsWith(SUFFIX))
    return { ok: true, value: raw };
  const inner = raw.slice(PREFIX.length, raw.length - SUFFIX.length);
  if (!STRICT_BASE64.test(inner)) return { ok: false, problem: 'is not valid base64 inside =?base64?…?= (bad alphabet, length or padding)' };
  try {
    return { ok: true, value: utf8.decode(Buffer.from(inner, 'base64')) };
  } catch {
    return { ok: false, problem: 'does not decode to valid UTF-8' };
  }
}

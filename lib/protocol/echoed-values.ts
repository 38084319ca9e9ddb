import { META_KEYS } from '../mcp.constants.js';
import { isPlainObject } from '../util/is-plain-object.js';
import type { SchemaProblem } from '../validation/schema-problems.js';

/**
 * The most characters a client-chosen value the server repeats in every message of an answer may hold:
 * `_meta.progressToken` (each progress notification) and a listen request's id (each message of its stream). A
 * request's cost stays in line with its size only while what it makes the server repeat is short.
 */
export const ECHOED_VALUE_MAX_CHARS = 256;

/** What an echoed number must be: one JSON carries exactly (a request id, a progress token). */
export const EXACT_ECHO = 'must be a string or an integer within ±(2^53−1)';

/** Whether a value is a string too long to repeat in every message of an answer. */
export function tooLongToEcho(value: unknown): value is string {
  return typeof value === 'string' && value.length > ECHOED_VALUE_MAX_CHARS;
}

/**
 * The problem with a request's progress token that its notifications cannot repeat as sent: a string too long to
 * repeat in each, or a number JSON cannot carry exactly (beyond ±(2^53−1), or `1e400`); none when it fits.
 */
export function progressTokenProblem(message: Record<string, unknown> | undefined): SchemaProblem | undefined {
  const meta = isPlainObject(message?.params) ? message.params._meta : undefined;
  const token = isPlainObject(meta) ? meta[META_KEYS.progressToken] : undefined;
  const path = ['params', '_meta', META_KEYS.progressToken];
  if (tooLongToEcho(token)) return { path, problem: `must have at most ${ECHOED_VALUE_MAX_CHARS} characters (every progress notification repeats it), got ${token.length}` };
  if (typeof token === 'number' && !Number.isSafeInteger(token)) return { path, problem: `${EXACT_ECHO} (every progress notification repeats it exactly)` };
  return undefined;
}

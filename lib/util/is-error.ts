import { types } from 'node:util';

/**
 * Whether a value is an Error: an instance of this realm's `Error`, or a native error of another realm (a `vm`
 * context, or a test runner's, where Node's own errors fail `instanceof Error`), so none is rendered as an object,
 * its stack with it.
 */
export function isError(value: unknown): value is Error {
  return value instanceof Error || types.isNativeError(value);
}

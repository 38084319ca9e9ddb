import { quoted } from '../util/bounded.js';
import { PASSES_CONTAINMENT } from './fault-containment.js';
import { isEmittableCode } from './json-rpc-codes.js';

/** Whether a value is an HTTP status code Node can send (an integer from 100 to 599). */
export const isHttpStatus = (status: unknown): status is number => Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 599;

/** The constructor's refusal of a code, naming a swap when the message is a code and the code is not. */
function codeProblem(code: unknown, message: unknown): string {
  const swapped = typeof code === 'string' && typeof message === 'number' ? '; the arguments look swapped: the code comes first' : '';
  return `McpMethodError(code, message, data?, httpStatus?) needs an integer code the spec lets a server emit (such as -32602, invalid params; not -32002 or -32042, which 2026-07-28 retired, nor -32023 to -32099, which it reserves), not ${quoted(code, 60)}${swapped}`;
}

/**
 * A JSON-RPC error a method handler answers with after routing (unknown tool, missing client capability): the
 * method's answer, so no rejection mark or table row. Sent with `httpStatus` (200 unless the protocol fixes one).
 * Its code, message and status are checked as it is built (a `TypeError`), so a mistake fails where it is made,
 * not as a 500 where the answer is sent; only `data` JSON cannot carry is left to the sender (a walk).
 * @publicApi
 */
export class McpMethodError extends Error {
  override readonly name = 'McpMethodError';
  /** A tool may throw it on purpose: fault containment lets it through to the method's answer. */
  readonly [PASSES_CONTAINMENT] = true;

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus: number = 200,
  ) {
    super(message);
    if (!isEmittableCode(code)) throw new TypeError(codeProblem(code, message));
    if (typeof message !== 'string') throw new TypeError(`McpMethodError(code, message, data?, httpStatus?) needs a string message, not ${quoted(message, 60)}`);
    if (!isHttpStatus(httpStatus))
      throw new TypeError(`McpMethodError(code, message, data?, httpStatus?) needs an HTTP status from 100 to 599 (or none, for 200), not ${quoted(httpStatus, 60)}`);
  }
}

/** Tells a method error apart without `instanceof`. @publicApi */
export function isMethodError(value: unknown): value is McpMethodError {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'McpMethodError' && typeof (value as { code?: unknown }).code === 'number';
}

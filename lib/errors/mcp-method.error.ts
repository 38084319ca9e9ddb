import { PASSES_CONTAINMENT } from './fault-containment.js';

/**
 * A JSON-RPC error a method handler answers with, after routing: an unknown tool (-32602), a missing client
 * capability (-32021), a tampered `requestState`. A refusal, but not a rejection: it carries no rejection mark
 * and is not in the rejection table, because it is the method's answer to a message the pipeline accepted.
 * Sent with `httpStatus` (200 unless the protocol fixes another, as it does for -32021).
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
  }
}

/** Tells a method error apart without `instanceof`. @publicApi */
export function isMethodError(value: unknown): value is McpMethodError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { name?: unknown }).name === 'McpMethodError' &&
    typeof (value as { code?: unknown }).code === 'number'
  );
}

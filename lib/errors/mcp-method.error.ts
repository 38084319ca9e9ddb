import { PASSES_CONTAINMENT } from './fault-containment.js';

/**
 * A JSON-RPC error a method handler answers with after routing (unknown tool, missing client capability): the
 * method's answer, so no rejection mark or table row. Sent with `httpStatus` (200 unless the protocol fixes one).
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
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'McpMethodError' && typeof (value as { code?: unknown }).code === 'number';
}

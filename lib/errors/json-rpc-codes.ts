/**
 * The JSON-RPC error codes this library chooses (https://modelcontextprotocol.io/specification/2026-07-28/basic); a
 * handler's `McpMethodError` may carry another code the spec lets a server emit.
 * @publicApi
 */
export const JSON_RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
} as const;

/** One of the codes in {@link JSON_RPC_CODES}. @publicApi */
export type JsonRpcCode = (typeof JSON_RPC_CODES)[keyof typeof JSON_RPC_CODES];

/** A JSON-RPC error object: what an error response carries under `error`, and a failed task under `error`. @publicApi */
export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** Codes 2026-07-28 retired, which must not be emitted. */
const RETIRED_CODES: ReadonlySet<number> = new Set([-32002, -32042]);

/**
 * Whether a code may go on the wire (a tool's method error carries its own): a safe integer, not retired, and not
 * in -32023…-32099, which the spec reserves without defining.
 */
export function isEmittableCode(code: unknown): code is number {
  return Number.isSafeInteger(code) && !RETIRED_CODES.has(code as number) && !((code as number) <= -32023 && (code as number) >= -32099);
}

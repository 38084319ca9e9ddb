/**
 * The JSON-RPC error codes a 2026-07-28 server emits (DIGEST h). No other code leaves this library: the
 * -32000…-32019 range, -32002 and -32042 are never used.
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

/** Codes 2026-07-28 retired: MUST NOT be emitted (R011). */
const RETIRED_CODES: ReadonlySet<number> = new Set([-32002, -32042]);

/**
 * Whether a server may put a code on the wire (a method error a tool raises carries its own): an integer, not
 * retired (-32002, -32042, R011), and not in -32023…-32099, which the spec reserves without defining (R009).
 * The codes above, and application codes outside -32768…-32000, pass.
 */
export function isEmittableCode(code: unknown): code is number {
  return Number.isSafeInteger(code) && !RETIRED_CODES.has(code as number) && !((code as number) <= -32023 && (code as number) >= -32099);
}

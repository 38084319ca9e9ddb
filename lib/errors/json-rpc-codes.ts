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

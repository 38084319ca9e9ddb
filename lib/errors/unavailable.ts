import { JSON_RPC_CODES } from './json-rpc-codes.js';
import { McpMethodError } from './mcp-method.error.js';

/**
 * The method error for a request this server cannot take now but may later, or another instance may: 503 + -32603,
 * `data.reason` naming why (`sentence` follows "Internal error: " and ends with what the client can do). The legacy
 * era sends it with 200, as every method error.
 */
export function unavailable(reason: string, sentence: string, data: Readonly<Record<string, unknown>> = {}): McpMethodError {
  return new McpMethodError(JSON_RPC_CODES.internalError, `Internal error: ${sentence}`, { reason, ...data }, 503);
}

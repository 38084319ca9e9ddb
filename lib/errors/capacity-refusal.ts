import { JSON_RPC_CODES } from './json-rpc-codes.js';
import { McpMethodError } from './mcp-method.error.js';

/**
 * The method error for a bound on what the server holds across requests, reached (pending input requests, listen
 * streams, tasks): 503 + -32603 naming the bound in `data.reason`, so the client may retry later. The legacy era
 * sends it with 200, as every method error.
 */
export function capacityRefusal(reason: string, held: string, advice = 'retry later'): McpMethodError {
  return new McpMethodError(JSON_RPC_CODES.internalError, `Internal error: ${held}; ${advice}.`, { reason }, 503);
}

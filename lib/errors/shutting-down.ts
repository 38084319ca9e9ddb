import { JSON_RPC_CODES } from './json-rpc-codes.js';
import { McpMethodError } from './mcp-method.error.js';

/**
 * The method error for work a mount cannot take on or finish because the application is shutting down: 503 +
 * -32603 (`shutting_down`; 200 on the legacy era, as every method error), so the client retries, on another
 * instance or once this one is back. `what` says what could not be done.
 */
export function shuttingDown(what: string): McpMethodError {
  return new McpMethodError(
    JSON_RPC_CODES.internalError,
    `Internal error: the server is shutting down, so ${what}; send the request again (another instance, or this one once it is back, will take it).`,
    { reason: 'shutting_down' },
    503,
  );
}

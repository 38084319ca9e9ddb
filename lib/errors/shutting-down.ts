import type { McpMethodError } from './mcp-method.error.js';
import { unavailable } from './unavailable.js';

/**
 * The method error for work a mount cannot take on or finish because the application is shutting down:
 * {@link unavailable} (`shutting_down`), so the client retries, on another instance or once this one is back.
 * `what` says what could not be done.
 */
export function shuttingDown(what: string): McpMethodError {
  return unavailable('shutting_down', `the server is shutting down, so ${what}; send the request again (another instance, or this one once it is back, will take it).`);
}

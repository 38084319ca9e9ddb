import type { McpMethodError } from './mcp-method.error.js';
import { unavailable } from './unavailable.js';

/**
 * The method error for a bound on what the server holds across requests, reached (pending input requests, listen
 * streams, tasks, requests under way): {@link unavailable}, naming the bound in `data.reason`, so the client may
 * retry later.
 */
export function capacityRefusal(reason: string, held: string, advice = 'retry later'): McpMethodError {
  return unavailable(reason, `${held}; ${advice}.`);
}

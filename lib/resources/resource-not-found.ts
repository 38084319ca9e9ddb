import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { bounded, quoted } from '../util/bounded.js';

/** The longest URI quoted back in a not-found refusal's `data.uri`. */
export const NOT_FOUND_URI_MAX_CHARS = 2048;

/**
 * The refusal of a `resources/read` of a URI with no resource: 400 + -32602, `data: {uri}` (bounded), as the
 * spec requires (https://modelcontextprotocol.io/specification/2026-07-28/server/resources#error-handling). Thrown
 * by a template's `read` for a URI it matched but that names nothing (`throw resourceNotFound(uri)`).
 * @publicApi
 */
export function resourceNotFound(uri: string): McpMethodError {
  return unmatchedResource(uri, '');
}

/** The same refusal from the method, when no resource or template matches: its message goes on with what is `served`. */
export function unmatchedResource(uri: string, served: string): McpMethodError {
  return new McpMethodError(JSON_RPC_CODES.invalidParams, `Resource not found: ${quoted(uri, 200)}.${served}`, uriData(uri), 400);
}

/** The `data` of a refused read: the URI asked for, bounded. */
export const uriData = (uri: string): { readonly uri: string } => ({ uri: bounded(uri, NOT_FOUND_URI_MAX_CHARS) });

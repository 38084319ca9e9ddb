import type { HttpException } from '@nestjs/common';

import { httpExceptionMethodError, httpExceptionParts } from '../errors/http-exception.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { bounded, quoted } from '../util/bounded.js';
import { OFFERED_URI_QUOTED_MAX, didYouMean } from '../util/near-miss.js';

/** The longest URI quoted back in a not-found refusal's `data.uri`. */
export const NOT_FOUND_URI_MAX_CHARS = 2048;

/**
 * The refusal of a `resources/read` of a URI with no resource: 400 + -32602, `data: {uri}` (bounded), as the
 * spec requires (https://modelcontextprotocol.io/specification/2026-07-28/server/resources#error-handling). Thrown
 * by a template's `read` for a URI it matched but that names nothing (`throw resourceNotFound(uri)`).
 * @publicApi
 */
export function resourceNotFound(uri: string): McpMethodError {
  return unmatchedResource(uri, undefined, '');
}

/**
 * The same refusal from the method, when no resource or template matches: its message names the resource URI `meant`
 * (a near miss), if any, and goes on with what is `served`.
 */
export function unmatchedResource(uri: string, meant: string | undefined, served: string): McpMethodError {
  return notFound(uri, `${didYouMean(meant, OFFERED_URI_QUOTED_MAX)}.${served}`);
}

/** Resource not found, its message going on after the URI with `rest`. */
function notFound(uri: string, rest: string): McpMethodError {
  return new McpMethodError(JSON_RPC_CODES.invalidParams, `Resource not found: ${quoted(uri, 200)}${rest}`, uriData(uri), 400);
}

/** The `data` of a refused read: the URI asked for, bounded. */
export const uriData = (uri: string): { readonly uri: string } => ({ uri: bounded(uri, NOT_FOUND_URI_MAX_CHARS) });

/**
 * A Nest `HttpException` out of a `read`, as the read's answer: a 404 (`NotFoundException`) is resource not found,
 * with `data` exactly `{uri}` as the spec writes it (the official SDK v2 client raises its `ResourceNotFoundError`
 * for that shape only) and the exception's message after the URI; any other status as every method answers one.
 */
export function readRefusal(thrown: HttpException, uri: string): McpMethodError {
  const { status, message } = httpExceptionParts(thrown);
  return status === 404 ? notFound(uri, ` (${message}).`) : httpExceptionMethodError(thrown, uriData(uri));
}

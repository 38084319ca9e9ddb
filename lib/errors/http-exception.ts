import { HttpException } from '@nestjs/common';

import { faultKind, faultMessage } from './fault-containment.js';
import { JSON_RPC_CODES } from './json-rpc-codes.js';
import { McpMethodError } from './mcp-method.error.js';

/**
 * Whether a thrown value is a Nest `HttpException` (a `NotFoundException` from a service, say): an answer the
 * handler's code chose, not a fault. Read without `instanceof` alone, which fails across duplicated Nest copies.
 */
export function isHttpException(thrown: unknown): thrown is HttpException {
  try {
    return (
      thrown instanceof HttpException ||
      (thrown instanceof Error && typeof (thrown as Partial<HttpException>).getStatus === 'function' && typeof (thrown as Partial<HttpException>).getResponse === 'function')
    );
  } catch {
    return false;
  }
}

/** What an `HttpException` says: its class, its status when that is an integer, and its message (bounded). */
export type HttpExceptionParts = {
  readonly error: string;
  readonly status?: number;
  readonly message: string;
};

/**
 * Reads an `HttpException`: the message is its body when that is text, or the body's `message` (a
 * `ValidationPipe`-style list joined with `; `), else the exception's own. Total: a hostile exception gives its own
 * message.
 */
export function httpExceptionParts(thrown: HttpException): HttpExceptionParts {
  let status: unknown;
  let message = faultMessage(thrown);
  try {
    status = thrown.getStatus();
    const body = thrown.getResponse() as unknown;
    const said = typeof body === 'string' ? body : (body as { message?: unknown } | null)?.message;
    if (typeof said === 'string' || (Array.isArray(said) && said.every((m) => typeof m === 'string'))) message = faultMessage(new Error([said].flat().join('; ')));
  } catch {
    // a hostile exception: its own message, already read
  }
  return { error: faultKind(thrown), ...(Number.isInteger(status) && { status: status as number }), message };
}

/** Statuses that ask the caller to try again later, not to change the request. */
const TRY_LATER: ReadonlySet<number> = new Set([408, 429]);

/**
 * An `HttpException` out of a resource's `read`, a prompt's `get` or a completer, as its method answers: the
 * handler's chosen refusal, not a fault. A 4xx is 400 + -32602 (the request's params name something the handler
 * refuses; a read's 404 is resource not found instead, `readRefusal`); a 408, 429 or 5xx is -32603 with that
 * status (a `ServiceUnavailableException` stays a 503), anything else 500 + -32603. The message is the exception's,
 * `data` names its class and status; 200 on the legacy era, as every method error.
 */
export function httpExceptionMethodError(thrown: HttpException, data?: Readonly<Record<string, unknown>>): McpMethodError {
  const { error, status, message } = httpExceptionParts(thrown);
  const later = status !== undefined && (TRY_LATER.has(status) || (status >= 500 && status <= 599));
  const refused = !later && status !== undefined && status >= 400 && status < 500;
  return new McpMethodError(
    refused ? JSON_RPC_CODES.invalidParams : JSON_RPC_CODES.internalError,
    `${refused ? 'Invalid params' : 'Internal error'}: ${message}`,
    { reason: 'http_exception', error, ...(status !== undefined && { status }), ...data },
    refused ? 400 : later ? status : 500,
  );
}

/** Runs a handler's code, answering an `HttpException` it throws as `answer` says ({@link httpExceptionMethodError} unless told). */
export async function answeringHttpExceptions<T>(run: () => T | Promise<T>, answer: (thrown: HttpException) => McpMethodError = httpExceptionMethodError): Promise<T> {
  try {
    return await run();
  } catch (thrown) {
    throw isHttpException(thrown) ? answer(thrown) : thrown;
  }
}

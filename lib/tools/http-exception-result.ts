import { HttpException } from '@nestjs/common';

import { faultKind, faultMessage } from '../errors/fault-containment.js';
import { errorResult } from './tool-result.js';
import type { ToolCallResult } from './tool.interfaces.js';

/**
 * Whether a thrown value is a Nest `HttpException` (a `NotFoundException` from a service, say): an answer the
 * tool's code chose, not a fault. Read without `instanceof` alone, which fails across duplicated Nest copies.
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

/**
 * What an `HttpException` out of a tool becomes: an `isError` tool result naming its class, status and message
 * (bounded), as `{"error", "status", "message"}`, which the calling model reads like any tool error. The message
 * is the exception's body when that is text, or its `message` (a `ValidationPipe`-style list joined), else the
 * exception's own.
 */
export function httpExceptionResult(thrown: HttpException): ToolCallResult {
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
  return errorResult({ error: faultKind(thrown), ...(Number.isInteger(status) && { status }), message });
}

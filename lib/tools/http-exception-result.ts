import type { HttpException } from '@nestjs/common';

import { httpExceptionParts } from '../errors/http-exception.js';
import { errorResult } from './tool-result.js';
import type { ToolCallResult } from './tool.interfaces.js';

/**
 * What an `HttpException` out of a tool becomes: an `isError` tool result naming its class, status and message
 * (bounded), as `{"error", "status", "message"}`, which the calling model reads like any tool error.
 */
export function httpExceptionResult(thrown: HttpException): ToolCallResult {
  return errorResult(httpExceptionParts(thrown));
}

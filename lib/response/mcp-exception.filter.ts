import type { IncomingMessage, ServerResponse } from 'node:http';
import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { JSON_RPC_CODES, isEmittableCode } from '../errors/json-rpc-codes.js';
import { isMethodError } from '../errors/mcp-method.error.js';
import { isRejection } from '../errors/rejection.exception.js';
import { errorEnvelope } from '../protocol/json-rpc.js';
import { requestRecord, type McpRequestRecord } from '../contracts/request-record.js';
import { faultKind } from '../errors/fault-containment.js';
import { publish } from '../telemetry/channels.js';
import { bounded } from '../util/bounded.js';
import { AuthFault } from '../wire/mcp-auth.guard.js';
import { sendAnswer } from './answer-stream.js';

type Raw = { raw?: ServerResponse };
const rawResponse = (res: unknown): ServerResponse => ((res as Raw).raw ?? res) as ServerResponse;
const rawRequest = (req: unknown): IncomingMessage => ((req as { raw?: IncomingMessage }).raw ?? req) as IncomingMessage;

/**
 * The rejection sender and method containment, bound on the mount's controller (so the host's global filters
 * never answer an MCP request). Every answer is a JSON-RPC error envelope echoing the request id when it could
 * be read, sent through the request's answer stream: a JSON body with the status below, or, when the handler
 * already sent a notification, the SSE stream's last event (the status line then already said 200):
 * - a rejection: status and code from `REJECTION_TABLE`; records the rejection mark on the request and emits
 *   one `mcp:wire:reject` event;
 * - a method error (`McpMethodError`): its code, data and status;
 * - an auth-provider fault: 500 + -32603 (its `mcp:auth:error` event was emitted where it was caught);
 * - the host's own `HttpException` (a global guard, a throttler): its status, in this dialect;
 * - any other fault past a method (method containment): 500 + -32603 with a fixed message naming the method,
 *   never the fault's text or stack; one `mcp:method:error` event carries the fault, bounded. The process keeps
 *   serving. So is an answer that cannot be sent as it is: a method error whose code is not an integer or is
 *   one the spec forbids a server to emit (`isEmittableCode`), whose status is no HTTP status, or whose data
 *   JSON cannot carry.
 * @publicApi
 */
@Catch()
export class McpExceptionFilter implements ExceptionFilter {
  catch(thrown: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = rawRequest(http.getRequest());
    const res = rawResponse(http.getResponse());
    const record = requestRecord(req);
    try {
      this.answer(thrown, res, record);
    } catch (fault) {
      // An answer that cannot be sent as it is (a method error with data JSON cannot carry, say) is a fault:
      // contained like any other, so the caller still gets one JSON-RPC error, never the host's error page.
      this.contain(fault, res, record);
    }
  }

  private answer(thrown: unknown, res: ServerResponse, record: McpRequestRecord): void {
    if (isRejection(thrown)) {
      record.rejection = thrown.mark;
      publish('mcp:wire:reject', () => ({
        rejecter: thrown.mark.rejecter,
        reason: thrown.mark.reason,
        status: thrown.getStatus(),
        code: thrown.code,
        method: record.method === undefined ? undefined : bounded(record.method),
      }));
      return sendAnswer(res, thrown.getStatus(), errorEnvelope(record.id, { code: thrown.code, message: thrown.message, data: thrown.data }), thrown.headers);
    }
    if (isMethodError(thrown)) {
      if (!isEmittableCode(thrown.code) || !isHttpStatus(thrown.httpStatus))
        throw new TypeError(
          `a method error needs an integer code the spec lets a server emit and an HTTP status (100–599), not code ${bounded(thrown.code, 30)} with status ${bounded(thrown.httpStatus, 30)}`,
        );
      return sendAnswer(res, thrown.httpStatus, errorEnvelope(record.id, { code: thrown.code, message: thrown.message, data: thrown.data }));
    }
    if (thrown instanceof AuthFault)
      return sendAnswer(res, 500, errorEnvelope(record.id, { code: JSON_RPC_CODES.internalError, message: 'Internal error: the auth provider failed.' }));
    if (thrown instanceof HttpException) {
      const status = thrown.getStatus();
      const code = status >= 500 ? JSON_RPC_CODES.internalError : JSON_RPC_CODES.invalidRequest;
      return sendAnswer(res, status, errorEnvelope(record.id, { code, message: bounded(thrown.message, 200) }));
    }
    this.contain(thrown, res, record);
  }

  /** Method containment: 500 + -32603 with a fixed message naming the method, one `mcp:method:error` event. */
  private contain(fault: unknown, res: ServerResponse, record: McpRequestRecord): void {
    publish('mcp:method:error', () => ({ method: record.method === undefined ? undefined : bounded(record.method), exception: faultKind(fault), error: bounded(fault, 500) }));
    const what = record.method ? ` while handling ${bounded(record.method, 60)}` : '';
    sendAnswer(res, 500, errorEnvelope(record.id, { code: JSON_RPC_CODES.internalError, message: `Internal error${what}.` }));
  }
}

/** Whether a value is an HTTP status code Node can send. */
const isHttpStatus = (status: unknown): status is number => Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 599;

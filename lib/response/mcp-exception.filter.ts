import type { IncomingMessage, ServerResponse } from 'node:http';

import { Catch, HttpException, Inject, Logger, Optional, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';

import { answersRequest, readableId, type JsonRpcId, type McpRequestRecord } from '../contracts/request-record.js';
import { faultKind } from '../errors/fault-containment.js';
import { JSON_RPC_CODES, isEmittableCode } from '../errors/json-rpc-codes.js';
import { isHttpStatus, isMethodError } from '../errors/mcp-method.error.js';
import { isRejection } from '../errors/rejection.exception.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { ArrivingBodies } from '../protocol/arriving-bodies.js';
import { decodeJson } from '../protocol/decode-body.js';
import { errorEnvelope } from '../protocol/json-rpc.js';
import { classifyMessage } from '../protocol/message-classification.js';
import { bodyWithin, type BodyBounds } from '../protocol/read-body.js';
import { mountName, publish } from '../telemetry/channels.js';
import { bounded } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { AuthFault } from '../wire/mcp-auth.guard.js';
import { runStopped, sendAnswer } from './answer-stream.js';
import { methodErrorAnswer } from './method-error-answer.js';
import { MountClosing } from './mount-closing.js';
import { telemetryId } from './telemetry-id.js';
import { TurnLost } from './turn.js';
import { takeOver } from './unanswered.js';
import { sendUnattached, type UnattachedBounds } from './unattached-answer.js';
import { WaitingAnswers } from './waiting-answers.js';

const logger = new Logger('Mcp');

/**
 * The note logged the first time a mount answers a refusal by the host's own machinery (a global guard, a throttler),
 * which runs before the mount's checks: the client sees only the refusal's message.
 */
export const hostRefusalNote = (mount: string, status: number, message: string): string =>
  `the host refused a request to the mount "${mount}" with ${status} (${bounded(message, 100)}) before the mount's checks ran: one of ` +
  "the application's global guards, interceptors or pipes threw it (said once per mount). If it is not meant for MCP callers, let " +
  "the mount's routes through with isMountRoute(context) (README, Recipes, Guards); authenticate MCP callers with the mount's auth provider.";

/**
 * The rejection sender and method containment, bound on the mount's controller so host global filters never
 * answer an MCP request. Each answer is a JSON-RPC error envelope (id echoed when readable, never a refused
 * response's: it is an answer itself) sent through the answer stream, so after a notification it is the last SSE
 * event. What the host threw before the parse step (its guard's refusal or fault) is answered with the request's
 * id: a body nobody read yet is read, within the mount's bounds, to find it. The mount's own wire checks (a rejection, an auth-provider fault) answer before any body
 * read, without an id.
 *
 * - rejection: status and code from `REJECTION_TABLE`; records the mark, emits one `mcp:wire:reject`;
 * - method error (`McpMethodError`): its code, data and status;
 * - auth-provider fault: 500 + -32603 (its `mcp:auth:error` was emitted where it was caught);
 * - the host's `HttpException` (a global guard, a throttler): its status, in this dialect;
 * - anything else, including a method error that cannot be sent as is (data JSON cannot carry; or, from a look-alike
 *   the constructor never checked, a code not emittable or no HTTP status): 500 (200 on the legacy era) + -32603
 *   naming only the method, never the fault; one `mcp:method:error`, bounded.
 * @publicApi
 */
@Catch()
export class McpExceptionFilter implements ExceptionFilter {
  /** The mount its events name; none for a filter outside every mount. */
  private readonly mount: string | undefined;
  /** Whether {@link hostRefusalNote} was logged for this mount. */
  private hostRefusalNoted = false;
  /** What bounds its answers sent without an answer stream; none for a filter outside every mount. */
  private readonly bounds: UnattachedBounds | undefined;

  constructor(
    @Optional() @Inject(MCP_OPTIONS) private readonly options?: McpResolvedOptions,
    @Optional() @Inject(MountClosing) private readonly shutdown?: MountClosing,
    @Optional() @Inject(ArrivingBodies) private readonly arriving?: ArrivingBodies,
    @Optional() @Inject(WaitingAnswers) waiting?: WaitingAnswers,
  ) {
    this.mount = options && mountName(options.path);
    this.bounds = options && shutdown && { shutdown, stallMs: options.writeStallTimeoutMs, waiting };
  }

  catch(thrown: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const { req, res, record } = takeOver(http.getRequest(), http.getResponse());
    // Pipelined on a connection that closed before its turn: nobody is left to answer, nothing of it ran.
    if (thrown instanceof TurnLost) return;
    // Refused before the parse step (a host's guard, say): the id is still known when the host's parser read the body.
    const hostBody = (http.getRequest() as { body?: unknown }).body;
    record.id ??= readableId(hostBody);
    if (record.id === undefined && this.options && this.arriving && this.shutdown && byTheHost(thrown) && unread(req)) {
      // Else read it, within the mount's bounds, to find the id: its rest would be read and discarded all the same.
      void messageInBody(req, this.options, this.arriving, this.shutdown).then((message) => {
        record.id = readableId(message);
        this.send(thrown, req, res, classified(record, message));
      });
      return;
    }
    this.send(thrown, req, res, classified(record, record.message ?? hostBody));
  }

  /**
   * Sends the answer to what was thrown, its envelope carrying the id of the request it refuses (`answersRequest`),
   * within the mount's bounds when it goes without an answer stream (`sendUnattached`).
   */
  private send(thrown: unknown, req: IncomingMessage, res: ServerResponse, record: McpRequestRecord): void {
    const id = answersRequest(record) ? record.id : undefined;
    const send = () => {
      try {
        this.answer(thrown, res, record, id);
      } catch (fault) {
        // An unsendable answer is contained too, so the caller still gets a JSON-RPC error, never the host's page.
        this.contain(fault, res, record, id);
      }
    };
    if (this.bounds) sendUnattached(req, res, this.bounds, send);
    else send();
  }

  private answer(thrown: unknown, res: ServerResponse, record: McpRequestRecord, id: JsonRpcId | undefined): void {
    const legacy = record.era === 'legacy';
    if (isRejection(thrown)) {
      record.rejection = thrown.mark;
      const status = legacy ? thrown.legacyStatus : thrown.getStatus();
      publish('mcp:wire:reject', () => ({
        mount: this.mount,
        rejecter: thrown.mark.rejecter,
        reason: thrown.mark.reason,
        status,
        code: thrown.code,
        method: record.method === undefined ? undefined : bounded(record.method),
        id: telemetryId(record.id),
        era: record.era,
      }));
      return sendAnswer(res, status, errorEnvelope(id, { code: thrown.code, message: thrown.message, data: thrown.data }), thrown.headers);
    }
    if (isMethodError(thrown)) {
      if (!isEmittableCode(thrown.code) || !isHttpStatus(thrown.httpStatus))
        throw new TypeError(
          `a method error needs an integer code the spec lets a server emit and an HTTP status (100–599), not code ${bounded(thrown.code, 30)} with status ${bounded(thrown.httpStatus, 30)}`,
        );
      const { status, body } = methodErrorAnswer(thrown, record);
      return sendAnswer(res, status, body);
    }
    if (thrown instanceof AuthFault)
      return sendAnswer(res, 500, errorEnvelope(id, { code: JSON_RPC_CODES.internalError, message: 'Internal error: the auth provider failed.' }));
    if (thrown instanceof HttpException) {
      const status = thrown.getStatus();
      if (this.mount !== undefined && !this.hostRefusalNoted) {
        this.hostRefusalNoted = true;
        logger.log(hostRefusalNote(this.mount, status, thrown.message));
      }
      const code = status >= 500 ? JSON_RPC_CODES.internalError : JSON_RPC_CODES.invalidRequest;
      return sendAnswer(res, status, errorEnvelope(id, { code, message: bounded(thrown.message, 200) }));
    }
    this.contain(thrown, res, record, id);
  }

  /**
   * Method containment: -32603 with a fixed message naming the method, one `mcp:method:error` event; 500, or 200 on
   * the legacy era, whose client reads a JSON-RPC error only from a 2xx answer (as for a method error).
   */
  private contain(fault: unknown, res: ServerResponse, record: McpRequestRecord, id: JsonRpcId | undefined): void {
    // A fault of a call whose run was stopped is its stop, as a tool's is: one whose client left (its input request
    // withdrawn, its signal aborted) is the cancellation's (`mcp:request:cancelled`), so no client can fill the error
    // log at will by hanging up; one the shutdown deadline answered (`shutting_down`) threw as its signal asked.
    if (!runStopped(res))
      publish('mcp:method:error', () => ({
        mount: this.mount,
        method: record.method === undefined ? undefined : bounded(record.method),
        id: telemetryId(record.id),
        era: record.era,
        exception: faultKind(fault),
        error: bounded(fault, 500),
        fault,
      }));
    const what = record.method ? ` while handling ${bounded(record.method, 60)}` : '';
    sendAnswer(
      res,
      record.era === 'legacy' && answersRequest(record) ? 200 : 500,
      errorEnvelope(id, { code: JSON_RPC_CODES.internalError, message: `Internal error${what}.` }),
    );
  }
}

/** The JSON value of a body nobody read, or undefined (not JSON, or a body past the mount's bounds). */
async function messageInBody(req: IncomingMessage, bounds: BodyBounds, arriving: ArrivingBodies, shutdown: MountClosing): Promise<unknown> {
  try {
    return decodeJson(await bodyWithin(req, bounds, arriving, shutdown));
  } catch {
    return undefined;
  }
}

/**
 * The record with its message kind, read from `message` where message validation refused before it said (a client's
 * response is refused there) or never ran (a host guard refused first), so `answersRequest` can tell.
 */
function classified(record: McpRequestRecord, message: unknown): McpRequestRecord {
  if (record.kind === undefined && isPlainObject(message)) record.kind = classifyMessage(message);
  return record;
}

/** Thrown by the host (its guard, a throttler), not by the mount's own wire checks. */
const byTheHost = (thrown: unknown): boolean => !isRejection(thrown) && !(thrown instanceof AuthFault);

/** Whether nobody has started reading a request's body. */
const unread = (req: IncomingMessage): boolean => !req.readableEnded && req.readableFlowing === null;

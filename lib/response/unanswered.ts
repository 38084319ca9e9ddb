import type { IncomingMessage, ServerResponse } from 'node:http';

import { answersRequest, requestRecord, type McpRequestRecord } from '../contracts/request-record.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { errorEnvelope } from '../protocol/json-rpc.js';
import { publish } from '../telemetry/channels.js';
import { bounded } from '../util/bounded.js';
import { nodeRequest, nodeResponse } from '../util/node-http.js';
import { sendJson } from './send.js';
import { sendUnattached, type UnattachedBounds } from './unattached-answer.js';

/**
 * The mount takes a request over to answer it (its route handler, its exception filter, the fallthrough): the Node
 * request and response under the host's, and the request's record, marked `taken` so the request is never also
 * answered as unanswered.
 */
export function takeOver(hostReq: unknown, hostRes: unknown): { req: IncomingMessage; res: ServerResponse; record: McpRequestRecord } {
  const req = nodeRequest(hostReq);
  const res = nodeResponse(hostRes);
  const record = requestRecord(req);
  record.taken = true;
  return { req, res, record };
}

/** The message of the answer to a request a host interceptor answered in the mount's stead. */
const UNANSWERED_MESSAGE = "Internal error: the server's own code answered this request without running the MCP mount.";

/**
 * Once the host's route handler for a mount's route has settled: a request the mount never took over (a host
 * interceptor answered without calling `next.handle()`, a maintenance switch or a cache, and the mount writes its
 * answers itself, so nothing was sent) gets 500 + -32603 (200 on the legacy era) with its id (a POST that carried no
 * request: 500, no id), sent within the mount's `bounds` as a refusal is, and one `mcp:method:error`, rather than no
 * answer at all.
 */
export function answerUnanswered(req: IncomingMessage, res: ServerResponse, mount: string, bounds: UnattachedBounds): void {
  const record = requestRecord(req);
  if (record.taken || res.headersSent || res.writableEnded || res.destroyed) return;
  publish('mcp:method:error', () => ({
    mount,
    method: record.method === undefined ? undefined : bounded(record.method),
    era: record.era,
    exception: 'UnansweredRequest',
    error: 'a host interceptor answered a request to the mount without calling next.handle(): let the mount path through it',
    fault: undefined,
  }));
  const request = answersRequest(record);
  const status = record.era === 'legacy' && request ? 200 : 500;
  const envelope = errorEnvelope(request ? record.id : undefined, { code: JSON_RPC_CODES.internalError, message: UNANSWERED_MESSAGE });
  sendUnattached(req, res, bounds, () => sendJson(res, status, envelope));
}

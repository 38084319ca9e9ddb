import type { IncomingMessage, ServerResponse } from 'node:http';

import { All, Controller, Inject, Post, Req, Res, UseFilters, UseGuards, type Type } from '@nestjs/common';

import { requestRecord } from './contracts/request-record.js';
import { JSON_RPC_CODES } from './errors/json-rpc-codes.js';
import { SERVED_VERBS } from './mcp.constants.js';
import { MethodRouter } from './methods/method-router.js';
import { PendingInputRequests } from './mrtr/pending-input-requests.js';
import { CHAIN_GUARDS } from './post-chain.js';
import { errorEnvelope, resultEnvelope } from './protocol/json-rpc.js';
import { AnswerStream } from './response/answer-stream.js';
import { McpExceptionFilter } from './response/mcp-exception.filter.js';
import { sendAcceptance, sendJson, sendText } from './response/send.js';
import { publish } from './telemetry/channels.js';
import { bounded } from './util/bounded.js';

const ALLOW = SERVED_VERBS.join(', ');

/** A 405 in the JSON-RPC dialect: clients tell the protocol eras apart by the body of a 400, 404 or 405. */
const NOT_ALLOWED = errorEnvelope(undefined, {
  code: JSON_RPC_CODES.invalidRequest,
  message: `Method not allowed: this MCP endpoint serves ${ALLOW} only (no session stream to GET, no session to DELETE).`,
});

function fallthrough(req: IncomingMessage, res: ServerResponse, status: 404 | 405): void {
  publish('mcp:wire:fallthrough', () => ({ verb: bounded(req.method ?? ''), path: bounded((req.url ?? '').split('?')[0]!, 200), status }));
  if (status === 405) sendJson(res, 405, NOT_ALLOWED, { allow: ALLOW });
  else sendText(res, 404, 'Not Found');
}

/**
 * Builds the controller for one mount path (Nest fixes a route when its decorator runs, so one class per mount):
 * - `POST <path>`: `CHAIN_GUARDS`, then a notification gets 202, a legacy client's answer to an input request is
 *   delivered and gets 202, and a request is routed and answered through its `AnswerStream`;
 * - any other verb at `<path>`: the fallthrough, 405 + `Allow: POST` with a JSON-RPC error body, no check run;
 * - any verb below `<path>`: the fallthrough, 404 in plain text.
 * `McpExceptionFilter` is bound here so the host's global filters never answer for the mount.
 */
export function createMcpController(path: string): Type<unknown> {
  @Controller(path)
  @UseFilters(McpExceptionFilter)
  class McpController {
    constructor(
      @Inject(MethodRouter) private readonly router: MethodRouter,
      @Inject(PendingInputRequests) private readonly pending: PendingInputRequests,
    ) {}

    @Post()
    @UseGuards(...CHAIN_GUARDS)
    async post(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
      const record = requestRecord(req);
      if (record.kind === 'notification') return sendAcceptance(res);
      if (record.kind === 'response') return (this.pending.accept(record), sendAcceptance(res));
      const answer = AnswerStream.attach(req, res, record.method!);
      answer.respond(resultEnvelope(record.id!, await this.router.route({ record, request: req, answer })));
    }

    @All()
    otherVerb(@Req() req: IncomingMessage, @Res() res: ServerResponse): void {
      fallthrough(req, res, 405);
    }

    @All('*below')
    belowMount(@Req() req: IncomingMessage, @Res() res: ServerResponse): void {
      fallthrough(req, res, 404);
    }
  }
  return McpController;
}

import { Controller, Delete, Get, Inject, Options, Patch, Post, Put, Req, Res, SetMetadata, UseFilters, UseGuards, type ControllerOptions, type Type } from '@nestjs/common';

import { MethodRouter } from './methods/method-router.js';
import { MountRoute } from './mount-route.js';
import { PendingInputRequests } from './mrtr/pending-input-requests.js';
import type { McpResolvedOptions } from './options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from './options/mcp-options.tokens.js';
import { PostChainGuard } from './post-chain.js';
import { resultEnvelopeJson } from './protocol/json-rpc.js';
import { AnswerStream, type AnswerBounds } from './response/answer-stream.js';
import { fallthrough } from './response/fallthrough.js';
import { LegacyCancellations } from './response/legacy-cancellations.js';
import { McpExceptionFilter } from './response/mcp-exception.filter.js';
import { MountClosing } from './response/mount-closing.js';
import { sendAcceptance } from './response/send.js';
import { takeOver } from './response/unanswered.js';
import type { UnattachedBounds } from './response/unattached-answer.js';
import { WaitingAnswers } from './response/waiting-answers.js';
import { mountName } from './telemetry/channels.js';

/**
 * What `@ApiExcludeController()` of @nestjs/swagger sets: the mount is not a REST resource its OpenAPI document
 * could describe (it would list six operations, wrongly), and the class is ours, so the host could not exclude it.
 */
const OPENAPI_EXCLUDED = 'swagger/apiExcludeController';

/**
 * Builds the controller for one mount path and API version (Nest fixes a route when its decorator runs, so one class per mount):
 * - `POST <path>`: the POST chain (`PostChainGuard` runs `CHAIN_GUARDS`), then a notification gets 202 (a legacy
 *   `notifications/cancelled` ends the request it names: `LegacyCancellations`), a legacy client's answer to an input
 *   request is delivered and gets 202, and a request is routed and answered through its `AnswerStream`;
 * - GET (and HEAD), PUT, PATCH, DELETE, OPTIONS at `<path>`: the fallthrough, 405 + `Allow: POST` with a JSON-RPC
 *   error envelope, no check run (one route per verb: Fastify refuses a catch-all beside the POST route).
 * Paths below `<path>` are the host's to route (`MountOnHost`). Written on the Node response on every adapter. `McpExceptionFilter` is bound here so the host's global filters
 * never answer for the mount.
 */
export function createMcpController(path: string, version: ControllerOptions['version']): Type<unknown> {
  const mount = mountName(path);

  @Controller({ path, version })
  @UseFilters(McpExceptionFilter)
  @SetMetadata(OPENAPI_EXCLUDED, [true])
  class McpController {
    /** What bounds the mount's answers, and the fallthrough's (405 to another verb). */
    private readonly bounds: AnswerBounds & UnattachedBounds;

    constructor(
      @Inject(MethodRouter) private readonly router: MethodRouter,
      @Inject(PendingInputRequests) private readonly pending: PendingInputRequests,
      @Inject(MCP_OPTIONS) moduleOptions: McpResolvedOptions,
      @Inject(MountClosing) private readonly shutdown: MountClosing,
      @Inject(LegacyCancellations) private readonly cancellations: LegacyCancellations,
      @Inject(WaitingAnswers) waiting: WaitingAnswers,
    ) {
      this.bounds = { shutdown, stallMs: moduleOptions.writeStallTimeoutMs, keepAliveMs: moduleOptions.subscriptions.keepAliveMs, mount, waiting };
    }

    @Post()
    @MountRoute(mount)
    @UseGuards(PostChainGuard)
    async post(@Req() hostReq: object, @Res() hostRes: unknown): Promise<void> {
      const { req, res, record } = takeOver(hostReq, hostRes);
      if (record.kind === 'notification' || record.kind === 'response') {
        if (record.kind === 'response') this.pending.accept(record);
        else this.cancellations.hear(record);
        this.shutdown.closeAfter(res);
        return sendAcceptance(res);
      }
      this.shutdown.refuseAfterDeadline();
      const answer = AnswerStream.attach(req, res, record.method!, this.bounds);
      this.cancellations.track(record, answer);
      answer.respondJson(resultEnvelopeJson(record.id!, await this.router.route({ record, request: req, hostRequest: hostReq, answer })));
    }

    @Get()
    @MountRoute(mount)
    get(@Req() req: unknown, @Res() res: unknown): void {
      fallthrough(req, res, 405, mount, this.bounds);
    }

    @Put()
    @MountRoute(mount)
    put(@Req() req: unknown, @Res() res: unknown): void {
      fallthrough(req, res, 405, mount, this.bounds);
    }

    @Patch()
    @MountRoute(mount)
    patch(@Req() req: unknown, @Res() res: unknown): void {
      fallthrough(req, res, 405, mount, this.bounds);
    }

    @Delete()
    @MountRoute(mount)
    delete(@Req() req: unknown, @Res() res: unknown): void {
      fallthrough(req, res, 405, mount, this.bounds);
    }

    @Options()
    @MountRoute(mount)
    options(@Req() req: unknown, @Res() res: unknown): void {
      fallthrough(req, res, 405, mount, this.bounds);
    }
  }
  return McpController;
}

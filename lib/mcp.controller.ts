import type { IncomingMessage, ServerResponse } from 'node:http';
import { All, Controller, Get, Inject, Logger, Post, Req, Res, UseFilters, UseGuards, type Type } from '@nestjs/common';
import { SERVED_VERBS } from './mcp.constants.js';
import { MCP_OPTIONS } from './options/mcp-options.tokens.js';
import type { McpResolvedOptions } from './options/mcp-module-options.interface.js';
import { MethodRouter } from './methods/method-router.js';
import { CHAIN_GUARDS } from './post-chain.js';
import { requestRecord } from './contracts/request-record.js';
import { resultEnvelope } from './protocol/json-rpc.js';
import { AnswerStream } from './response/answer-stream.js';
import { McpExceptionFilter } from './response/mcp-exception.filter.js';
import { sendAcceptance, sendJson, sendText } from './response/send.js';
import { publish } from './telemetry/channels.js';
import { bounded } from './util/bounded.js';
import { PROTECTED_RESOURCE_WELL_KNOWN, protectedResourceMetadataUrl } from './wire/protected-resource-metadata.js';

const ALLOW = SERVED_VERBS.join(', ');

function fallthrough(req: IncomingMessage, res: ServerResponse, status: 404 | 405): void {
  publish('mcp:wire:fallthrough', () => ({ verb: bounded(req.method ?? ''), path: bounded((req.url ?? '').split('?')[0]!, 200), status }));
  if (status === 405) sendText(res, 405, 'Method Not Allowed', { allow: ALLOW });
  else sendText(res, 404, 'Not Found');
}

/**
 * Builds the mount's controller for one mount path. Nest fixes a controller's route when its decorator runs, so
 * `McpModule.forRoot` builds one class per mount: two mounts at two paths in one app each get their own.
 *
 * - `POST <path>`: the one served verb, through `CHAIN_GUARDS` (the POST chain, in order; see `post-chain.ts`),
 *   then a notification is accepted (202) and a request is routed (`MethodRouter`) and answered 200 through
 *   its answer stream (`AnswerStream`: JSON, or SSE once a notification is sent; a closed stream cancels).
 * - Any other verb at `<path>`: the fallthrough, 405 + `Allow: POST`, plain text, no check run.
 * - Any verb below `<path>` (`<path>/x`): the fallthrough, 404, plain text.
 * `McpExceptionFilter`, bound here, sends every rejection and contains every fault, so the host's global filters
 * never answer for the mount. The host's global guards and body parser run before all of this (Nest's order).
 * Responses are written on the raw Node response: the handler owns the answer, including its status.
 */
export function createMcpController(path: string): Type<unknown> {
  @Controller(path)
  @UseFilters(McpExceptionFilter)
  class McpController {
    constructor(@Inject(MethodRouter) private readonly router: MethodRouter) {}

    @Post()
    @UseGuards(...CHAIN_GUARDS)
    async post(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
      const record = requestRecord(req);
      if (record.kind === 'notification') return sendAcceptance(res);
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

/**
 * Builds the controller serving RFC 9728 protected-resource metadata for one mount, at
 * `/.well-known/oauth-protected-resource/<path>` (GET): the `protectedResourceMetadata` option as JSON, or 404
 * when the option is not set. The auth check's `resource_metadata` names the URL derived from the option's
 * `resource`; when that resource's path is not the mount path (a global prefix, a proxy that rewrites paths),
 * the two differ, and module init logs a warning saying where the metadata is served.
 */
export function createProtectedResourceMetadataController(path: string): Type<unknown> {
  @Controller(path ? `.well-known/oauth-protected-resource/${path}` : '.well-known/oauth-protected-resource')
  class ProtectedResourceMetadataController {
    constructor(@Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions) {
      const resource = options.protectedResourceMetadata?.resource;
      const servedAt = `${PROTECTED_RESOURCE_WELL_KNOWN}${path ? `/${path}` : ''}`;
      if (resource !== undefined && new URL(protectedResourceMetadataUrl(resource)).pathname !== servedAt)
        new Logger('McpModule').warn(
          `protectedResourceMetadata.resource ${resource} names ${protectedResourceMetadataUrl(resource)} in its challenges, but the metadata is served at ${servedAt} (relative to any global prefix); route that URL to it.`,
        );
    }

    @Get()
    metadata(@Res() res: ServerResponse): void {
      const metadata = this.options.protectedResourceMetadata;
      if (!metadata) return sendText(res, 404, 'Not Found');
      res.setHeader('cache-control', 'public, max-age=3600');
      sendJson(res, 200, metadata);
    }
  }
  return ProtectedResourceMetadataController;
}

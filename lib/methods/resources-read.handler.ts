import { Injectable } from '@nestjs/common';

import { McpContext } from '../context/mcp-context.js';
import { answeringHttpExceptions } from '../errors/http-exception.js';
import { ERAS } from '../mcp.constants.js';
import { MrtrRounds } from '../mrtr/mrtr-rounds.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { readRefusal, unmatchedResource } from '../resources/resource-not-found.js';
import { ResourceRegistry } from '../resources/resource.registry.js';
import { contextInit } from './context-init.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/**
 * `resources/read`: the resource declared at exactly the URI, else the first template (in declaration order) that
 * matches it; no match is 400 + -32602 with `data: {uri}`, never an empty `contents`. Each read is one MRTR round
 * (its `requestState` bound to the URI), so `ctx.elicit`, `ctx.sample` and `ctx.listRoots` work in `read` on both
 * eras. An `HttpException` from `read` is its answer (`readRefusal`: a `NotFoundException` is resource not found). A
 * complete result carries the resource's own caching hints, else the router adds the module's.
 */
@Injectable()
export class ResourcesReadHandler implements McpMethodHandler {
  readonly method = 'resources/read' as const;
  readonly eras = ERAS;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly rounds: MrtrRounds,
  ) {}

  served(): boolean {
    return this.registry.size > 0;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    const uri = call.params.uri as string;
    const resource = this.registry.resolve(uri);
    if (!resource) throw unmatchedResource(uri, this.registry.uriMeant(uri), this.registry.served());
    const inputs = await this.rounds.open({ method: this.method, params: call.params, record: call.record, identifying: { uri }, answer: call.answer });
    const ctx = new McpContext(contextInit(call, { resource: uri, inputs }));
    return this.rounds.settle(inputs, async () => {
      const contents = await answeringHttpExceptions(
        () => resource.read(ctx),
        (thrown) => readRefusal(thrown, uri),
      );
      return { resultType: 'complete', contents, ...(resource.cache && { ttlMs: resource.cache.ttlMs, cacheScope: resource.cache.cacheScope }) };
    });
  }
}

import { Inject, Injectable } from '@nestjs/common';

import { RejectionException } from '../errors/rejection.exception.js';
import { META_KEYS } from '../mcp.constants.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { distilledData } from '../protocol/json-rpc.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { ProtocolSchema } from '../protocol/protocol-schema.js';
import { quoted } from '../util/bounded.js';
import { CACHEABLE_METHODS, REQUEST_DEFINITIONS, isMcpMethod, isRemovedMethod } from './mcp-methods.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';
import { ServerDiscoverHandler } from './server-discover.handler.js';
import { ToolsCallHandler } from './tools-call.handler.js';
import { ToolsListHandler } from './tools-list.handler.js';

/**
 * Method routing, the last stage before a handler: an unserved method (unknown, removed, or behind an unadvertised
 * capability) is 404 + -32601, a request breaking the method's schema definition is -32602, then the handler runs.
 * Every result gets the serverInfo `_meta`; cacheable methods' complete results (only) get the caching hints.
 */
@Injectable()
export class MethodRouter {
  private readonly handlers = new Map<string, McpMethodHandler>();
  private readonly cache: McpResolvedOptions['cache'];
  private readonly serverInfo: Readonly<Record<string, unknown>>;

  constructor(
    @Inject(MCP_OPTIONS) options: McpResolvedOptions,
    private readonly schema: ProtocolSchema,
    discover: ServerDiscoverHandler,
    toolsList: ToolsListHandler,
    toolsCall: ToolsCallHandler,
  ) {
    for (const handler of [discover, toolsList, toolsCall]) {
      this.handlers.set(handler.method, handler);
      schema.validator(REQUEST_DEFINITIONS[handler.method]);
    }
    this.cache = options.cache;
    this.serverInfo = options.serverInfo as unknown as Readonly<Record<string, unknown>>;
  }

  /** Routes a request the POST chain accepted; resolves to the result the answer stream sends. */
  async route(call: Omit<MethodCall, 'params'>): Promise<McpResult> {
    const method = call.record.method!;
    const handler = this.handlers.get(method);
    if (!handler || !handler.served()) {
      if (isRemovedMethod(method)) throw new RejectionException('method-routing', 'removed_method', `Method not found: ${method} was removed in protocol version 2026-07-28.`);
      throw new RejectionException(
        'method-routing',
        'unknown_method',
        `Method not found: ${quoted(method, 80)}${isMcpMethod(method) ? ' is not served by this server' : ''}.`,
      );
    }
    const problems = this.schema.check(REQUEST_DEFINITIONS[handler.method], call.record.message);
    if (problems.length) throw new RejectionException('method-routing', 'invalid_params', `Invalid params for ${method}.`, { data: distilledData(problems) });
    const result = await handler.handle({ ...call, params: (call.record.message!.params ?? {}) as Record<string, unknown> });
    return this.finish(method, result);
  }

  private finish(method: string, result: McpResult): McpResult {
    const finished: McpResult = { ...result };
    if (CACHEABLE_METHODS.has(method) && finished.resultType === 'complete') {
      finished.ttlMs ??= this.cache.ttlMs;
      finished.cacheScope ??= this.cache.cacheScope;
    }
    finished._meta = { ...(result._meta as Record<string, unknown> | undefined), [META_KEYS.serverInfo]: this.serverInfo };
    return finished;
  }
}

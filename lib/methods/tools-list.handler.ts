import { Injectable } from '@nestjs/common';

import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { ERAS } from '../mcp.constants.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/**
 * `tools/list`: every wired-in tool's definition, sorted by name, in one page. This server never issues a
 * cursor, so a request carrying one is answered -32602 (an invalid cursor). Served when any tool is wired in.
 */
@Injectable()
export class ToolsListHandler implements McpMethodHandler {
  readonly method = 'tools/list' as const;
  readonly eras = ERAS;
  private definitions: readonly Readonly<Record<string, unknown>>[] | undefined;

  constructor(private readonly registry: ToolRegistry) {}

  served(): boolean {
    return this.registry.size > 0;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    if (call.params.cursor !== undefined) throw new McpMethodError(JSON_RPC_CODES.invalidParams, 'Invalid params: unknown cursor; this server lists every tool in one page.');
    this.definitions ??= this.registry.list().map((tool) => tool.definition);
    return { resultType: 'complete', tools: this.definitions };
  }
}

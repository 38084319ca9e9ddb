import { Injectable } from '@nestjs/common';

import { ERAS } from '../mcp.constants.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import { ListPages } from './list-pages.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/** `tools/list`: the wired-in tools' definitions, sorted by name, a page at a time (`ListPages`). Served when any tool is wired in. */
@Injectable()
export class ToolsListHandler implements McpMethodHandler {
  readonly method = 'tools/list' as const;
  readonly eras = ERAS;
  private definitions: readonly Readonly<Record<string, unknown>>[] | undefined;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly pages: ListPages,
  ) {}

  served(): boolean {
    return this.registry.size > 0;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    this.definitions ??= this.registry.list().map((tool) => tool.definition);
    return this.pages.result(this.method, 'tools', this.definitions, call.params.cursor);
  }
}

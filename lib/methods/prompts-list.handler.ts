import { Injectable } from '@nestjs/common';

import { ERAS } from '../mcp.constants.js';
import { PromptRegistry } from '../prompts/prompt.registry.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { ListPages } from './list-pages.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/** `prompts/list`: the wired-in prompts' definitions, sorted by name, a page at a time (`ListPages`). Served when any prompt is wired in. */
@Injectable()
export class PromptsListHandler implements McpMethodHandler {
  readonly method = 'prompts/list' as const;
  readonly eras = ERAS;
  private definitions: readonly Readonly<Record<string, unknown>>[] | undefined;

  constructor(
    private readonly registry: PromptRegistry,
    private readonly pages: ListPages,
  ) {}

  served(): boolean {
    return this.registry.size > 0;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    this.definitions ??= this.registry.list().map((prompt) => prompt.definition);
    return this.pages.result(this.method, 'prompts', this.definitions, call.params.cursor);
  }
}

import { Injectable } from '@nestjs/common';

import type { McpEra } from '../mcp.constants.js';
import { legacyToolDefinition } from '../tools/tool-definition.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import { runsOnlyAsTask } from '../tools/wired-tool.js';
import { ListMethod } from './list-method.js';
import { ListPages } from './list-pages.js';

/**
 * `tools/list`: the wired-in tools' definitions, sorted by name, a page at a time. Served when any tool is wired in.
 * A legacy client is not listed a tool every run of which is a task (it could never call it: tasks are a
 * 2026-07-28 extension), so its list is a list of its own.
 */
@Injectable()
export class ToolsListHandler extends ListMethod {
  readonly method = 'tools/list' as const;
  protected readonly member = 'tools';

  constructor(
    private readonly registry: ToolRegistry,
    pages: ListPages,
  ) {
    super(pages);
  }

  served(): boolean {
    return this.registry.size > 0;
  }

  protected definitions(era: McpEra) {
    return this.registry
      .list()
      .filter((tool) => era === 'modern' || !runsOnlyAsTask(tool))
      .map((tool) => (era === 'modern' ? tool.definition : legacyToolDefinition(tool.definition)));
  }

  protected override listName(era: McpEra): string {
    return era === 'legacy' ? `${this.method} (legacy era)` : this.method;
  }
}

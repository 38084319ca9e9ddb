import { Injectable } from '@nestjs/common';

import { ToolRegistry } from '../tools/tool.registry.js';
import { ListMethod } from './list-method.js';
import { ListPages } from './list-pages.js';

/** `tools/list`: the wired-in tools' definitions, sorted by name, a page at a time. Served when any tool is wired in. */
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

  protected definitions() {
    return this.registry.list().map((tool) => tool.definition);
  }
}

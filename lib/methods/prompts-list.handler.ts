import { Injectable } from '@nestjs/common';

import { PromptRegistry } from '../prompts/prompt.registry.js';
import { ListMethod } from './list-method.js';
import { ListPages } from './list-pages.js';

/** `prompts/list`: the wired-in prompts' definitions, sorted by name, a page at a time. Served when any prompt is wired in. */
@Injectable()
export class PromptsListHandler extends ListMethod {
  readonly method = 'prompts/list' as const;
  protected readonly member = 'prompts';

  constructor(
    private readonly registry: PromptRegistry,
    pages: ListPages,
  ) {
    super(pages);
  }

  served(): boolean {
    return this.registry.size > 0;
  }

  protected definitions() {
    return this.registry.list().map((prompt) => prompt.definition);
  }
}

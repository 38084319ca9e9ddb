import { Injectable } from '@nestjs/common';

import { ResourceListing } from './resources-list.handler.js';

/** `resources/templates/list`: the wired-in resource templates' definitions, in declaration order, a page at a time. */
@Injectable()
export class ResourcesTemplatesListHandler extends ResourceListing {
  readonly method = 'resources/templates/list' as const;
  protected readonly member = 'resourceTemplates';

  protected definitions() {
    return this.registry.listTemplates().map((template) => template.definition);
  }
}

import { Injectable } from '@nestjs/common';

import { ResourceRegistry } from '../resources/resource.registry.js';
import { ListMethod } from './list-method.js';
import { ListPages } from './list-pages.js';

/**
 * A list method of the resources capability, served when any resource or resource template is wired in (so a
 * list may be empty). Decorated so that its constructor's parameter types exist for the subclasses to inherit.
 */
@Injectable()
export abstract class ResourceListing extends ListMethod {
  abstract override readonly method: 'resources/list' | 'resources/templates/list';

  constructor(
    protected readonly registry: ResourceRegistry,
    pages: ListPages,
  ) {
    super(pages);
  }

  served(): boolean {
    return this.registry.size > 0;
  }
}

/** `resources/list`: the wired-in resources' definitions, in declaration order, a page at a time. */
@Injectable()
export class ResourcesListHandler extends ResourceListing {
  readonly method = 'resources/list' as const;
  protected readonly member = 'resources';

  protected definitions() {
    return this.registry.list().map((resource) => resource.definition);
  }
}

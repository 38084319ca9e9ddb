import { Injectable } from '@nestjs/common';

import { McpContext } from '../context/mcp-context.js';
import { ResourceRegistry, type WiredResourceTemplate } from '../resources/resource.registry.js';
import { contextInit } from './context-init.js';
import { ListMethod, type ListedDefinition } from './list-method.js';
import { ListPages } from './list-pages.js';
import type { MethodCall } from './method-handler.interface.js';

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

/**
 * `resources/list`: the wired-in resources' definitions, in declaration order, then the resources each template
 * with a `list` lists (asked on every request, in declaration order), a page at a time.
 */
@Injectable()
export class ResourcesListHandler extends ResourceListing {
  readonly method = 'resources/list' as const;
  protected readonly member = 'resources';
  /** The templates that list their resources, found once after module init. */
  private listing: readonly WiredResourceTemplate[] | undefined;

  protected definitions() {
    return this.registry.list().map((resource) => resource.definition);
  }

  protected override listedPerRequest(call: MethodCall): Promise<readonly ListedDefinition[]> | undefined {
    const listing = (this.listing ??= this.registry.listTemplates().filter((template) => template.list !== undefined));
    if (listing.length === 0) return undefined;
    const lists = listing.map((template) => template.list!(new McpContext(contextInit(call, { resource: template.uriTemplate }))));
    return Promise.all(lists).then((listed) => listed.flat());
  }
}

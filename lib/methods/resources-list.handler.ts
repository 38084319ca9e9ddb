import { Injectable } from '@nestjs/common';

import { ERAS } from '../mcp.constants.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { ResourceRegistry } from '../resources/resource.registry.js';
import { ListPages } from './list-pages.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/**
 * A list method of the resources capability: one kind of the registry's definitions, in declaration order, a page
 * at a time (`ListPages`). Served when any resource or resource template is wired in, so a list may be empty.
 * Decorated so that its constructor's parameter types exist for the subclasses to inherit.
 */
@Injectable()
export abstract class ResourceListing implements McpMethodHandler {
  abstract readonly method: 'resources/list' | 'resources/templates/list';
  readonly eras = ERAS;
  /** The result's member holding the page. */
  protected abstract readonly member: string;
  private listed: readonly Readonly<Record<string, unknown>>[] | undefined;

  constructor(
    protected readonly registry: ResourceRegistry,
    private readonly pages: ListPages,
  ) {}

  /** The definitions listed, read once from the registry after module init. */
  protected abstract definitions(): readonly Readonly<Record<string, unknown>>[];

  served(): boolean {
    return this.registry.size > 0;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    this.listed ??= this.definitions();
    return this.pages.result(this.method, this.member, this.listed, call.params.cursor);
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

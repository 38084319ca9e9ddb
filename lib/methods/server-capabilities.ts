import { Inject, Injectable, type Provider } from '@nestjs/common';

import { PromptRegistry } from '../prompts/prompt.registry.js';
import type { Capabilities, CapabilitySource } from '../protocol/capability-source.js';
import { ResourceRegistry } from '../resources/resource.registry.js';
import { SubscriptionCapabilities } from '../subscriptions/subscription-capabilities.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import { CompletionCompleteHandler } from './completion-complete.handler.js';

/**
 * Every capability source: a registry not listed here advertises nothing. `SubscriptionCapabilities` stays last: it
 * adds `listChanged`/`subscribe` to the entries the sources before it created.
 */
export const CAPABILITY_SOURCES = [ToolRegistry, PromptRegistry, ResourceRegistry, CompletionCompleteHandler, SubscriptionCapabilities] as const;

/** Injection token of the capability sources, as instances. */
export const MCP_CAPABILITY_SOURCES = Symbol.for('nest-mcp.capability-sources');

/** The capability sources' list provider (the sources themselves are provided where they live). */
export const CAPABILITY_SOURCES_PROVIDER: Provider = {
  provide: MCP_CAPABILITY_SOURCES,
  useFactory: (...sources: CapabilitySource[]) => sources,
  inject: [...CAPABILITY_SOURCES],
};

/**
 * The capabilities advertised in `server/discover` and `initialize`: exactly those whose methods are served,
 * gathered from what module init wired in, so advertised and routed never disagree.
 */
@Injectable()
export class ServerCapabilities {
  constructor(@Inject(MCP_CAPABILITY_SOURCES) private readonly sources: readonly CapabilitySource[]) {}

  /** The capabilities object (MCP `ServerCapabilities`). */
  current(): Capabilities {
    const capabilities: Capabilities = {};
    for (const source of this.sources) source.contribute(capabilities);
    return capabilities;
  }
}

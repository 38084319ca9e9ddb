import { Inject, Injectable, type Provider } from '@nestjs/common';

import type { McpEra } from '../mcp.constants.js';
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
const CAPABILITY_SOURCES = [ToolRegistry, PromptRegistry, ResourceRegistry, CompletionCompleteHandler, SubscriptionCapabilities] as const;

/** Injection token of the capability sources, as instances. */
const MCP_CAPABILITY_SOURCES = Symbol.for('nest-mcp.capability-sources');

/** The capability sources' list provider (the sources themselves are provided where they live). */
export const CAPABILITY_SOURCES_PROVIDER: Provider = {
  provide: MCP_CAPABILITY_SOURCES,
  useFactory: (...sources: CapabilitySource[]) => sources,
  inject: [...CAPABILITY_SOURCES],
};

/**
 * The capabilities advertised per era, in `server/discover` (modern) and `initialize` (legacy): exactly those whose
 * methods are served and whose notifications are delivered on that era, gathered from what module init wired in, so
 * advertised and routed never disagree. Gathered once per era, at the first request (after module init).
 */
@Injectable()
export class ServerCapabilities {
  private readonly gathered: Partial<Record<McpEra, Readonly<Capabilities>>> = {};

  constructor(@Inject(MCP_CAPABILITY_SOURCES) private readonly sources: readonly CapabilitySource[]) {}

  /** The capabilities object (MCP `ServerCapabilities`) of an era. */
  current(era: McpEra): Readonly<Capabilities> {
    return (this.gathered[era] ??= this.gather(era));
  }

  private gather(era: McpEra): Readonly<Capabilities> {
    const capabilities: Capabilities = {};
    for (const source of this.sources) source.contribute(capabilities, era);
    for (const entry of Object.values(capabilities)) Object.freeze(entry);
    return Object.freeze(capabilities);
  }
}

import { Inject, Injectable } from '@nestjs/common';

import { MCP_CHANGE_KINDS } from '../contracts/mcp-event-bus.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import type { Capabilities, CapabilitySource } from '../protocol/capability-source.js';
import { CHANGE_DELIVERY } from './subscription-filter.js';

/**
 * The capabilities listen streams make true, contributed last: `listChanged` on each of `tools`, `prompts` and
 * `resources` that an earlier source advertised, and `subscribe` on `resources`; nothing when the mount serves no
 * modern era (`subscriptions/listen` is a 2026-07-28 method). The listen handler honors exactly what these say.
 */
@Injectable()
export class SubscriptionCapabilities implements CapabilitySource {
  private readonly listenServed: boolean;

  constructor(@Inject(MCP_OPTIONS) options: McpResolvedOptions) {
    this.listenServed = options.eras !== 'legacy';
  }

  contribute(into: Capabilities): void {
    if (!this.listenServed) return;
    for (const kind of MCP_CHANGE_KINDS) {
      const { capability, flag } = CHANGE_DELIVERY[kind];
      if (into[capability]) into[capability] = { ...into[capability], [flag]: true };
    }
  }
}

import { Injectable } from '@nestjs/common';

import { MCP_CHANGE_KINDS } from '../contracts/mcp-event-bus.js';
import type { McpEra } from '../mcp.constants.js';
import type { Capabilities, CapabilitySource } from '../protocol/capability-source.js';
import { CHANGE_DELIVERY } from './subscription-filter.js';

/**
 * The capabilities listen streams make true, contributed last: `listChanged` on each of `tools`, `prompts` and
 * `resources` that an earlier source advertised, and `subscribe` on `resources`; on the modern era only, since
 * `subscriptions/listen` is a 2026-07-28 method and a stateless server has no way to notify a legacy client. The
 * listen handler honors exactly what these say.
 */
@Injectable()
export class SubscriptionCapabilities implements CapabilitySource {
  contribute(into: Capabilities, era: McpEra): void {
    if (era !== 'modern') return;
    for (const kind of MCP_CHANGE_KINDS) {
      const { capability, flag } = CHANGE_DELIVERY[kind];
      if (into[capability]) into[capability] = { ...into[capability], [flag]: true };
    }
  }
}

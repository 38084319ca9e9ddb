import { Injectable } from '@nestjs/common';

import type { McpResult } from '../protocol/json-rpc.js';
import type { McpMethodHandler } from './method-handler.interface.js';
import { ServerCapabilities } from './server-capabilities.js';

/**
 * The legacy era's resource subscriptions, as far as a stateless server can serve them: the request (its `uri`
 * checked to be a URI by method routing) is acknowledged with an empty result, and nothing is remembered, since no
 * session outlives it. `initialize` therefore does not advertise `resources.subscribe`; the methods are served on a
 * mount with resources so that a client subscribing anyway is not refused. See docs/subscriptions.md.
 */
@Injectable()
abstract class LegacyResourceSubscription implements McpMethodHandler {
  abstract readonly method: 'resources/subscribe' | 'resources/unsubscribe';
  readonly eras = ['legacy'] as const;

  constructor(private readonly capabilities: ServerCapabilities) {}

  served(): boolean {
    return this.capabilities.current('legacy').resources !== undefined;
  }

  async handle(): Promise<McpResult> {
    return { resultType: 'complete' };
  }
}

/** `resources/subscribe` (legacy era): acknowledged, with no effect a stateless server could keep (see above). */
@Injectable()
export class ResourcesSubscribeHandler extends LegacyResourceSubscription {
  readonly method = 'resources/subscribe' as const;
}

/** `resources/unsubscribe` (legacy era): acknowledged, as `resources/subscribe` is. */
@Injectable()
export class ResourcesUnsubscribeHandler extends LegacyResourceSubscription {
  readonly method = 'resources/unsubscribe' as const;
}

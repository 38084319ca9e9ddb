import { Injectable } from '@nestjs/common';

import { MCP_CHANGE_KINDS } from '../contracts/mcp-event-bus.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { ListenStreams } from '../subscriptions/listen-streams.js';
import { delivers, acknowledgedFilter } from '../subscriptions/subscription-filter.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';
import { ServerCapabilities } from './server-capabilities.js';

/**
 * `subscriptions/listen` (modern era): an SSE stream that acknowledges its filter first (the acknowledged filter), then carries the
 * change events it asked for until the client closes it or the application shuts down (then the listen result,
 * `{resultType: "complete", _meta: {subscriptionId}}`). Served when the capabilities advertise any kind of change
 * (`listChanged`, `subscribe`); else 404 + -32601. A client whose `Accept` excludes SSE is refused (406 + -32600).
 * See docs/subscriptions.md.
 */
@Injectable()
export class SubscriptionsListenHandler implements McpMethodHandler {
  readonly method = 'subscriptions/listen' as const;
  readonly eras = ['modern'] as const;

  constructor(
    private readonly capabilities: ServerCapabilities,
    private readonly streams: ListenStreams,
  ) {}

  served(): boolean {
    const capabilities = this.capabilities.current('modern');
    return MCP_CHANGE_KINDS.some((kind) => delivers(capabilities, kind));
  }

  async handle(call: MethodCall): Promise<McpResult> {
    call.answer.requireStream('subscriptions/listen answers');
    const filter = acknowledgedFilter(call.params.notifications, this.capabilities.current('modern'));
    const stream = await this.streams.open(call.record.id!, filter, call.answer);
    await stream.ended;
    return { resultType: 'complete', _meta: { ...stream.resultMeta } };
  }
}

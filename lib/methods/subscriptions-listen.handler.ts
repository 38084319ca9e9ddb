import { Injectable } from '@nestjs/common';

import { MCP_CHANGE_KINDS } from '../contracts/mcp-event-bus.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { ListenStreams } from '../subscriptions/listen-streams.js';
import { delivers, acknowledgedFilter } from '../subscriptions/subscription-filter.js';
import { bounded } from '../util/bounded.js';
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
    if (!call.answer.canStream)
      throw new McpMethodError(
        JSON_RPC_CODES.invalidRequest,
        'subscriptions/listen answers with an SSE stream, which the Accept header excludes: accept text/event-stream.',
        { accept: bounded(call.request.headers.accept ?? '', 200) },
        406,
      );
    const filter = acknowledgedFilter(call.params.notifications, this.capabilities.current('modern'));
    const stream = await this.streams.open(call.record.id!, filter, call.answer);
    await stream.ended;
    return { resultType: 'complete', _meta: { ...stream.resultMeta } };
  }
}

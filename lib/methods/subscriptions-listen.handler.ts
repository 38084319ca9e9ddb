import { Inject, Injectable } from '@nestjs/common';

import { MCP_CHANGE_KINDS } from '../contracts/mcp-event-bus.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { ECHOED_VALUE_MAX_CHARS, tooLongToEcho } from '../protocol/echoed-values.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { requestFootprint } from '../protocol/request-footprint.js';
import { ListenStreams } from '../subscriptions/listen-streams.js';
import { delivers, acknowledgedFilter } from '../subscriptions/subscription-filter.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';
import { ServerCapabilities } from './server-capabilities.js';

/**
 * `subscriptions/listen` (modern era): an SSE stream that acknowledges its filter first (the acknowledged filter), then carries the
 * change events it asked for until the client closes it or the application shuts down (then the listen result,
 * `{resultType: "complete", _meta: {subscriptionId}}`). Served when the capabilities advertise any kind of change
 * (`listChanged`, `subscribe`); else 404 + -32601. A client whose `Accept` excludes SSE is refused (406 + -32600),
 * as is a request whose id is too long to repeat in every message (400 + -32600) or whose acknowledged filter
 * alone would be more than a stream may hold (400 + -32602), or that would take what the open streams hold past
 * `subscriptions.maxOpenBytes` (503 + -32603): before anything is streamed.
 * See docs/subscriptions.md.
 */
@Injectable()
export class SubscriptionsListenHandler implements McpMethodHandler {
  readonly method = 'subscriptions/listen' as const;
  readonly eras = ['modern'] as const;
  readonly boundApart = true;

  /** The most a stream may hold (`subscriptions.maxBufferedBytes`): an acknowledgment larger than that is refused. */
  private readonly maxBufferedBytes: number;

  constructor(
    private readonly capabilities: ServerCapabilities,
    private readonly streams: ListenStreams,
    @Inject(MCP_OPTIONS) options: McpResolvedOptions,
  ) {
    this.maxBufferedBytes = options.subscriptions.maxBufferedBytes;
  }

  served(): boolean {
    const capabilities = this.capabilities.current('modern');
    return MCP_CHANGE_KINDS.some((kind) => delivers(capabilities, kind));
  }

  async handle(call: MethodCall): Promise<McpResult> {
    call.answer.requireStream('subscriptions/listen answers');
    const id = call.record.id!;
    if (tooLongToEcho(id))
      throw new McpMethodError(
        JSON_RPC_CODES.invalidRequest,
        `Invalid request: every message of a listen stream repeats its request id, so the id may have at most ${ECHOED_VALUE_MAX_CHARS} characters (got ${id.length}); send a shorter id.`,
        { reason: 'listen_id_too_long', maxChars: ECHOED_VALUE_MAX_CHARS },
        400,
      );
    const filter = acknowledgedFilter(call.params.notifications, this.capabilities.current('modern'));
    const ackBytes = Buffer.byteLength(JSON.stringify(filter));
    if (ackBytes > this.maxBufferedBytes)
      throw new McpMethodError(
        JSON_RPC_CODES.invalidParams,
        `Invalid params: the stream's acknowledgment would repeat ${ackBytes} bytes of filter, more than a listen stream may hold (${this.maxBufferedBytes}, subscriptions.maxBufferedBytes); subscribe to fewer resources, or to a URI that covers several (a subscribed URI covers those below it).`,
        { reason: 'listen_filter_too_large', filterBytes: ackBytes, maxBytes: this.maxBufferedBytes },
        400,
      );
    const stream = await this.streams.open(id, filter, call.answer, requestFootprint(call.record) + ackBytes);
    await stream.ended;
    return { resultType: 'complete', _meta: { ...stream.resultMeta } };
  }
}

import type { IncomingMessage } from 'node:http';

import type { McpRequestRecord } from '../contracts/request-record.js';
import type { McpEra } from '../mcp.constants.js';
import type { McpResult } from '../protocol/json-rpc.js';
import type { AnswerStream } from '../response/answer-stream.js';
import type { LegacyMethod, McpMethod, TasksMethod } from './mcp-methods.js';

/** One routed request, as a method handler sees it. */
export interface MethodCall {
  /** The request's `params` (validated against the method's request definition). */
  readonly params: Record<string, unknown>;
  /** What the POST chain proved about the request (id, protocol fields, auth). */
  readonly record: McpRequestRecord;
  /** The Node request (its headers, its connection). */
  readonly request: IncomingMessage;
  /** The host framework's request (Express: the Node request; Fastify: its wrapper), as the host's guards left it. */
  readonly hostRequest: object;
  /** The request's answer stream: notifications go through it; its `signal` fires on cancellation. */
  readonly answer: AnswerStream;
}

/**
 * A handler for one method, in the eras it serves it in (`MCP_METHODS` on the modern era, `LEGACY_METHODS` on the
 * legacy one); unless `served()` (its capability advertised), the method is 404 + -32601. A handler is era-neutral:
 * the method router adapts the request's envelope and the result's shape to the era.
 */
export interface McpMethodHandler {
  readonly method: McpMethod | LegacyMethod | TasksMethod;
  readonly eras: readonly McpEra[];
  /**
   * Set when the handler runs as long as a stream stays open and counts its request under that stream's own bound
   * (a listen stream: `subscriptions.maxOpenBytes`), so it is not counted among the requests under way.
   */
  readonly boundApart?: true;
  served(): boolean;
  handle(call: MethodCall): Promise<McpResult>;
}

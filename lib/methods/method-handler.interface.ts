import type { IncomingMessage } from 'node:http';

import type { McpRequestRecord } from '../contracts/request-record.js';
import type { McpResult } from '../protocol/json-rpc.js';
import type { AnswerStream } from '../response/answer-stream.js';
import type { McpMethod } from './mcp-methods.js';

/** One routed request, as a method handler sees it. */
export interface MethodCall {
  /** The request's `params` (validated against the method's request definition). */
  readonly params: Record<string, unknown>;
  /** What the POST chain proved about the request (id, protocol fields, auth). */
  readonly record: McpRequestRecord;
  /** The raw Node request. */
  readonly request: IncomingMessage;
  /** The request's answer stream: notifications go through it; its `signal` fires on cancellation. */
  readonly answer: AnswerStream;
}

/** A handler for one of `MCP_METHODS`; unless `served()` (its capability advertised), the method is 404 + -32601. */
export interface McpMethodHandler {
  readonly method: McpMethod;
  served(): boolean;
  handle(call: MethodCall): Promise<McpResult>;
}

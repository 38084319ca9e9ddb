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
  /** The request's answer stream: notifications go through it, before the final response; its `signal` fires when the client goes away (cancellation). */
  readonly answer: AnswerStream;
}

/**
 * A method handler: serves one method of `MCP_METHODS`. `served()` says whether this server serves it now (its
 * capability is advertised); an unserved method is answered 404 + -32601 like an unknown one. Its result goes
 * out through the request's answer stream, after any notification it sent.
 */
export interface McpMethodHandler {
  readonly method: McpMethod;
  served(): boolean;
  handle(call: MethodCall): Promise<McpResult>;
}

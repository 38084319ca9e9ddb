import type { IncomingMessage } from 'node:http';
import { MCP_REQUEST_STATE } from '../mcp.constants.js';
import type { RejectionMark } from '../errors/rejection.exception.js';
import type { McpAuthInfo } from '../wire/mcp-auth.interface.js';
import type { MessageKind } from './message-classification.js';

/** A JSON-RPC id as the protocol allows it: a string or an integer. */
export type JsonRpcId = string | number;

/**
 * What the POST chain has learned about one request, kept on the Node request object so each stage reads what
 * an earlier one proved instead of re-reading the body. Written by the stages in chain order.
 */
export interface McpRequestState {
  /** The parsed body (set by the parse step). */
  message?: Record<string, unknown>;
  /** The message kind (set by message validation). */
  kind?: MessageKind;
  /** The request id when it could be read (a string or an integer); error envelopes echo it. */
  id?: JsonRpcId;
  /** The JSON-RPC method, when the message has a string one. */
  method?: string;
  /** The request's `params._meta`, once the protocol fields proved it (set by the protocol-fields check). */
  meta?: Record<string, unknown>;
  /** What the auth provider returned for this request (set by the auth check). */
  auth?: McpAuthInfo;
  /** The rejection mark, set by the rejection sender when a rejection was sent. */
  rejection?: RejectionMark;
}

type WithState = IncomingMessage & { [MCP_REQUEST_STATE]?: McpRequestState };

/** The request's state record, created on first use. */
export function requestState(req: IncomingMessage): McpRequestState {
  const r = req as WithState;
  return (r[MCP_REQUEST_STATE] ??= {});
}

/** Reads a JSON-RPC id the protocol allows (a string, or an integer), or undefined. */
export function readableId(message: unknown): JsonRpcId | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const id = (message as { id?: unknown }).id;
  if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) return id;
  return undefined;
}

import type { IncomingMessage } from 'node:http';

import type { RejectionMark } from '../errors/rejection.exception.js';
import type { McpEra } from '../mcp.constants.js';
import { HeaderLines } from '../util/header-lines.js';
import { nodeRequest } from '../util/node-http.js';
import type { McpAuthInfo } from './mcp-auth.interface.js';

/** A JSON-RPC id as the protocol allows it: a string or an integer (a telemetry event's `id`). @publicApi */
export type JsonRpcId = string | number;

/** What message classification found a parsed message to be (see `classifyMessage`). */
export type MessageKind = 'request' | 'notification' | 'response' | 'unknown';

/** What a legacy client's echoed `Mcp-Session-Id` carries: the revision `initialize` negotiated, the input capabilities it declared. */
export interface SessionIdContents {
  /** The random UUID that opens it: one client's, as far as this server can tell (what scopes its cancellations). */
  readonly id: string;
  readonly version: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/** What the POST chain has proved about one HTTP request, kept on the Node request and filled in chain order. */
export interface McpRequestRecord {
  /** The parsed body (parse step). */
  message?: Record<string, unknown>;
  /** The body's size in bytes, when the parse step read the bytes (not when a host parser handed it a value). */
  bodyBytes?: number;
  /**
   * The body's length as text in UTF-16 code units, when it holds a character past ASCII or a `\u` escape, which
   * may spell one (parse step): a string holding one is kept at two bytes a unit, so its text may take twice as many
   * bytes as it arrived in.
   */
  bodyUnits?: number;
  /** How many JSON values the message holds, itself included (message validation's walk counts them). */
  values?: number;
  /** Set when the parse step read the body and it holds no number out of range (`1e400`), so none is looked for again. */
  numbersInRange?: true;
  /** The era the request is served under (era classification). */
  era?: McpEra;
  /** The message kind (message validation). */
  kind?: MessageKind;
  /** The request id, when it could be read; error envelopes echo it. */
  id?: JsonRpcId;
  /** The JSON-RPC method, when the message has a string one. */
  method?: string;
  /** `params._meta`, once the protocol-fields check proved it. */
  meta?: Record<string, unknown>;
  /**
   * What a legacy request's or `notifications/cancelled`'s echoed session id carries, read by the protocol-fields
   * check (absent: the client's capabilities are unknown).
   */
  sessionIdContents?: SessionIdContents;
  /** What the auth provider returned (auth check). */
  auth?: McpAuthInfo;
  /** The rejection mark, once the rejection sender sent a rejection. */
  rejection?: RejectionMark;
  /** The request's header lines, read on first use ({@link headerLines}). */
  lines?: HeaderLines;
  /** Set once the mount took the response over to answer it (its route handler, its exception filter or the fallthrough). */
  taken?: true;
}

const RECORD = Symbol.for('nest-mcp.request-record');

type WithRecord = IncomingMessage & { [RECORD]?: McpRequestRecord };

/** The request's record, created on first use. */
export function requestRecord(req: IncomingMessage): McpRequestRecord {
  return ((req as WithRecord)[RECORD] ??= {});
}

/**
 * The request's {@link HeaderLines}, read on first use and kept in its record: one property of ours on the host's
 * request object, not two (each one added there costs the host's objects a new shape or more).
 */
export function headerLines(req: IncomingMessage): HeaderLines {
  return (requestRecord(req).lines ??= new HeaderLines(req.rawHeaders));
}

/**
 * The rejection mark of a request the mount refused, else undefined; for a host's logging middleware or
 * interceptor once the answer is sent. Takes the Node request or an adapter's wrapper (`raw`).
 * @publicApi
 */
export function rejectionMarkOf(req: IncomingMessage | { readonly raw: IncomingMessage }): RejectionMark | undefined {
  return (nodeRequest(req) as WithRecord)[RECORD]?.rejection;
}

/** Reads a JSON-RPC id the protocol allows (a string, or a safe integer), or undefined. */
export function readableId(message: unknown): JsonRpcId | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const id = (message as { id?: unknown }).id;
  if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) return id;
  return undefined;
}

/**
 * Whether a POST's error answers a request: not when it carried a client's JSON-RPC response (its answer to the
 * server) or a notification, which answer no request. Their refusals carry no `id`, and an error status on every
 * era, never a legacy method error's 200 (the transport spec: an HTTP error status, an error response without `id`).
 */
export const answersRequest = (record: McpRequestRecord): boolean => record.kind !== 'response' && record.kind !== 'notification';

import type { McpChangeEvent } from '../contracts/mcp-event-bus.js';
import type { JsonRpcId } from '../contracts/request-record.js';
import { changeNotification } from './subscription-filter.js';

/** The `_meta` key every message of a listen stream carries: the listen request's JSON-RPC id, its type kept. */
export const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

/** How a change notification's JSON ends after its subscription id: `_meta`, `params`, the message. */
const AFTER_ID = '}}}';

/** A change notification's JSON up to its subscription id, and its length in UTF-8 bytes. */
export interface ChangeJsonHead {
  readonly text: string;
  readonly bytes: number;
}

let last: { kind: string; uri: string | undefined; head: ChangeJsonHead } | undefined;

/**
 * The JSON-RPC message a change event becomes on a listen stream, up to its subscription id (the only part that
 * differs between streams): serialized once per event for all the streams it goes to (the last event's is kept).
 */
export function changeJsonHead(event: McpChangeEvent): ChangeJsonHead {
  const uri = event.kind === 'resourceUpdated' ? event.uri : undefined;
  if (last?.kind === event.kind && last.uri === uri) return last.head;
  const { method, params } = changeNotification(event, { [SUBSCRIPTION_ID_META_KEY]: null });
  const json = JSON.stringify({ jsonrpc: '2.0', method, params });
  const text = json.slice(0, -`null${AFTER_ID}`.length);
  last = { kind: event.kind, uri, head: { text, bytes: Buffer.byteLength(text) } };
  return last.head;
}

/** What follows {@link changeJsonHead} on the stream of a listen request with this id. */
export function changeJsonTail(id: JsonRpcId): string {
  return JSON.stringify(id) + AFTER_ID;
}

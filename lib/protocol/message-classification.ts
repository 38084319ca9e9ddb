import type { MessageKind } from '../contracts/request-record.js';

/** Tags a parsed message by kind from its keys, before validation, so later stages branch on the kind. */
export function classifyMessage(message: Record<string, unknown>): MessageKind {
  if ('method' in message) return 'id' in message ? 'request' : 'notification';
  if ('result' in message || 'error' in message) return 'response';
  return 'unknown';
}

import type { MessageKind } from '../contracts/request-record.js';

/**
 * Message classification: tags a parsed message by kind from its discriminating keys, before validation, so the
 * rest of the chain branches on the kind instead of re-reading the body.
 *
 * | has `method` | has `id` | has `result` or `error` | kind           |
 * |--------------|----------|--------------------------|----------------|
 * | yes          | yes      | —                        | `request`      |
 * | yes          | no       | —                        | `notification` |
 * | no           | —        | yes                      | `response`     |
 * | no           | —        | no                       | `unknown`      |
 */

/** Classifies a parsed JSON object. */
export function classifyMessage(message: Record<string, unknown>): MessageKind {
  if ('method' in message) return 'id' in message ? 'request' : 'notification';
  if ('result' in message || 'error' in message) return 'response';
  return 'unknown';
}

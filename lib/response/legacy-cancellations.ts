import { Injectable } from '@nestjs/common';

import { readableId, type JsonRpcId, type McpRequestRecord } from '../contracts/request-record.js';
import type { AnswerStream } from './answer-stream.js';

/**
 * The answers under way on one mount to legacy requests that echoed a session id, by that id's UUID, the auth
 * subject and the request id: what a legacy `notifications/cancelled` from the same client may end. A request id
 * alone names no one client's request (clients choose ids), so a request or notification without a session id is
 * not tracked, and one names only requests of its own session id and subject. An answer leaves once its response
 * closes. Only this process's answers are found: behind a load balancer, route a legacy client to one instance.
 */
@Injectable()
export class LegacyCancellations {
  private readonly answers = new Map<string, AnswerStream>();

  /** Tracks the answer of a legacy request, if it echoed a session id, until its response closes. */
  track(record: McpRequestRecord, answer: AnswerStream): void {
    const key = cancellationKey(record, record.id);
    if (key === undefined) return;
    this.answers.set(key, answer);
    void answer.whenClosed().then(() => this.answers.get(key) === answer && this.answers.delete(key));
  }

  /**
   * Hears a legacy notification: a `notifications/cancelled` naming a tracked request of its client ends that
   * request's answer ({@link AnswerStream.endForCancellation}). Anything else, and an unknown or finished request,
   * is ignored, as the spec lets a receiver do.
   */
  hear(record: McpRequestRecord): void {
    if (record.method !== 'notifications/cancelled' || this.answers.size === 0) return;
    const params = record.message?.params as { requestId?: unknown; reason?: unknown } | undefined;
    const key = cancellationKey(record, readableId({ id: params?.requestId }));
    if (key !== undefined) this.answers.get(key)?.endForCancellation(typeof params?.reason === 'string' ? params.reason : undefined);
  }

  /** How many answers are tracked. */
  get size(): number {
    return this.answers.size;
  }
}

/** The key of a request of the record's client: undefined without a legacy session id or a readable request id. */
function cancellationKey(record: McpRequestRecord, id: JsonRpcId | undefined): string | undefined {
  const session = record.era === 'legacy' ? record.sessionIdContents?.id : undefined;
  if (session === undefined || id === undefined) return undefined;
  const subject = record.auth?.subject;
  const who = subject === undefined ? '' : String(subject);
  // A fixed-length session id, then the subject after its length: no two requests share a key (JSON.stringify cost
  // about 0.5 µs a legacy request).
  return `${session}${subject === undefined ? '-' : who.length}:${who}${typeof id}:${id}`;
}

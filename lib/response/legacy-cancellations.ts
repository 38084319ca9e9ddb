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
  /** By client (session id and subject), then by request id: the id itself is the inner key, never copied into one. */
  private readonly answers = new Map<string, Map<JsonRpcId, AnswerStream>>();
  private tracked = 0;

  /** Tracks the answer of a legacy request, if it echoed a session id, until its response closes. */
  track(record: McpRequestRecord, answer: AnswerStream): void {
    const client = clientKey(record);
    const id = record.id;
    if (client === undefined || id === undefined) return;
    let requests = this.answers.get(client);
    if (!requests) this.answers.set(client, (requests = new Map()));
    if (!requests.has(id)) this.tracked++;
    requests.set(id, answer);
    void answer.whenClosed().then(() => {
      if (requests.get(id) !== answer) return;
      requests.delete(id);
      this.tracked--;
      if (requests.size === 0 && this.answers.get(client) === requests) this.answers.delete(client);
    });
  }

  /**
   * Hears a legacy notification: a `notifications/cancelled` naming a tracked request of its client ends that
   * request's answer ({@link AnswerStream.endForCancellation}). Anything else, and an unknown or finished request,
   * is ignored, as the spec lets a receiver do.
   */
  hear(record: McpRequestRecord): void {
    if (record.method !== 'notifications/cancelled' || this.tracked === 0) return;
    const params = record.message?.params as { requestId?: unknown; reason?: unknown } | undefined;
    const client = clientKey(record);
    const id = readableId({ id: params?.requestId });
    if (client === undefined || id === undefined) return;
    this.answers
      .get(client)
      ?.get(id)
      ?.endForCancellation(typeof params?.reason === 'string' ? params.reason : undefined);
  }

  /** How many answers are tracked. */
  get size(): number {
    return this.tracked;
  }
}

/** The key of the record's client: undefined without a legacy session id. */
function clientKey(record: McpRequestRecord): string | undefined {
  const session = record.era === 'legacy' ? record.sessionIdContents?.id : undefined;
  if (session === undefined) return undefined;
  const subject = record.auth?.subject;
  // A fixed-length session id, then the subject: no two clients share a key.
  return subject === undefined ? `${session}-` : `${session}:${String(subject)}`;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import { http2StreamOf } from '../util/node-http.js';

const QUEUED = Symbol('nest-mcp.queued-answers');
const LEGACY_UNDER_WAY = Symbol('nest-mcp.legacy-answers-under-way');
type WithQueued = Socket & { [QUEUED]?: Set<() => void>; [LEGACY_UNDER_WAY]?: number };

/**
 * Calls `gone` when the connection of a queued answer closes before the answer has it: on an HTTP-pipelined
 * connection a response waits for the ones before it without a socket of its own, and Node emits no `close` on it
 * when the client leaves. One `close` listener per connection, however many answers wait on it; an answer leaves
 * the set when it gets the connection (its own `close` then tells).
 */
export function whenQueuedConnectionCloses(res: ServerResponse, connection: Socket, gone: () => void): void {
  if (connection.closed) return gone();
  const socket = connection as WithQueued;
  let queued = socket[QUEUED];
  if (!queued) {
    const waiting = (queued = socket[QUEUED] = new Set());
    socket.once('close', () => {
      const all = [...waiting];
      waiting.clear();
      for (const close of all) close();
    });
  }
  queued.add(gone);
  res.once('socket', () => queued.delete(gone));
}

/**
 * Thrown by the POST chain for a request pipelined on a connection that closed before its turn: nothing of it was
 * read or run, and nothing is answered (the exception filter lets it go).
 */
export class TurnLost extends Error {
  override readonly name = 'TurnLost';
  constructor() {
    super('the connection closed before the request pipelined on it had its turn');
  }
}

/**
 * A request's turn on an HTTP/1.1 connection it was pipelined on: resolves once its answer has the connection (the
 * answers before it went), rejects with {@link TurnLost} if the connection closes first. The mount takes a request
 * up (reads its body, checks and runs it) only in its turn, so a connection holds one request's work at a time
 * however many it pipelines, and nothing waits, read and run, behind an answer that may never end (a listen
 * stream). Undefined when it need not wait: its answer has the connection (no pipelining), it is HTTP/2's, or a
 * legacy-era answer is under way on the connection, whose client may pipeline behind it what that answer waits
 * for (its answer to an input request, its cancellation).
 */
export function turnOf(req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
  if (res.socket || http2StreamOf(res) || (req.socket as WithQueued | null)?.[LEGACY_UNDER_WAY]) return undefined;
  return new Promise((resolve, reject) => {
    res.once('socket', () => resolve());
    whenQueuedConnectionCloses(res, req.socket, () => reject(new TurnLost()));
  });
}

/**
 * Counts a legacy-era answer as under way on its HTTP/1.x connection (see {@link turnOf}); returns what uncounts
 * it, to be called once, when its response closes.
 */
export function legacyAnswerUnderWay(req: IncomingMessage): (() => void) | undefined {
  const socket = req.socket as WithQueued | null;
  if (!socket || http2StreamOf(req)) return undefined;
  socket[LEGACY_UNDER_WAY] = (socket[LEGACY_UNDER_WAY] ?? 0) + 1;
  return () => void (socket[LEGACY_UNDER_WAY]! -= 1);
}

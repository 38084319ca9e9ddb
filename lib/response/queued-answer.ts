import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const QUEUED = Symbol('nest-mcp.queued-answers');
type WithQueued = Socket & { [QUEUED]?: Set<() => void> };

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

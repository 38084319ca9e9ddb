import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import { http2StreamOf } from '../util/node-http.js';

const CLOSE_WATCHERS = Symbol('nest-mcp.turn-close-watchers');
const WAITING = Symbol('nest-mcp.requests-waiting-their-turn');
/** A connection as Node's HTTP server keeps it: `_paused` and `parser` are its own read brake (see {@link turnOf}). */
type Connection = Socket & { [CLOSE_WATCHERS]?: Set<() => void>; [WAITING]?: number; _paused?: boolean; parser?: { resume(): void } | null };

/**
 * Calls `gone` when the connection of a request waiting for its turn closes first: on an HTTP-pipelined connection
 * its response waits for the ones before it without a socket of its own, and Node emits no `close` on it when the
 * client leaves. One leaves the connection's watchers when its response gets the connection.
 */
function whenClosedBeforeTurn(res: ServerResponse, connection: Socket, gone: () => void): void {
  if (connection.closed) return gone();
  const watchers = closeWatchersOf(connection as Connection);
  watchers.add(gone);
  res.once('socket', () => watchers.delete(gone));
}

/**
 * The close watchers of a connection: one `close` listener for all the requests that ever wait on it, made apart
 * from any of them so that it holds none (a closure keeps its whole scope).
 */
function closeWatchersOf(socket: Connection): Set<() => void> {
  const known = socket[CLOSE_WATCHERS];
  if (known) return known;
  const watchers = (socket[CLOSE_WATCHERS] = new Set<() => void>());
  socket.once('close', () => {
    const all = [...watchers];
    watchers.clear();
    for (const close of all) close();
  });
  return watchers;
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
 * answers before it went), rejects with {@link TurnLost} if the connection closes first; undefined when it need not
 * wait (its answer has the connection, or it is HTTP/2's). The mount takes a request up (reads its body, checks and
 * runs it) only in its turn, so a connection holds one request's work at a time, and nothing waits, read and run,
 * behind an answer that may never end (a listen stream). While any request waits, the connection is not read:
 * Node's server stops parsing pipelined requests only once queued answers hold output, and a waiting request writes
 * none, so the mount applies Node's own brake (its `_paused` flag, which pauses the parser once the current read is
 * parsed) and releases it when none waits.
 * Proven by: test/e2e/stalled-write.e2e-spec.ts ("pipelined requests")
 */
export function turnOf(req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
  if (res.socket || http2StreamOf(res)) return undefined;
  const socket = req.socket as Connection;
  socket[WAITING] = (socket[WAITING] ?? 0) + 1;
  // Set again for each: Node lifts its brake itself when a write drains.
  if (!socket._paused) {
    socket._paused = true;
    socket.pause();
  }
  const settled = () => {
    if (--socket[WAITING]! > 0 || socket.destroyed) return;
    socket._paused = false;
    socket.parser?.resume();
    socket.resume();
  };
  return new Promise((resolve, reject) => {
    res.once('socket', () => (settled(), resolve()));
    whenClosedBeforeTurn(res, socket, () => (settled(), reject(new TurnLost())));
  });
}

import type { ServerResponse } from 'node:http';

import { http2StreamOf } from '../util/node-http.js';

/** Where `endWith` keeps how many bytes of a large answer it has still to hand to the response. */
const UNSENT = Symbol('nest-mcp.unsent-bytes');

type WithUnsent = ServerResponse & { [UNSENT]?: () => number };

/** Records what a response's writer holds back until the socket drains (`endWith`): `remaining` counts it. */
export function holdUnsent(res: ServerResponse, remaining: () => number): void {
  (res as WithUnsent)[UNSENT] = remaining;
}

/**
 * Bytes an answer holds for its client: what the response and its socket queue (over HTTP/2, its own stream: the
 * connection's queue is every stream's) and what its writer holds back. A write under way counts whole until it
 * completes, as its buffer is held until then.
 */
export function waitingBytes(res: ServerResponse): number {
  return res.writableLength + ((res as WithUnsent)[UNSENT]?.() ?? 0);
}

/** Whether an answer's client took any of it since the last look; `stop` once no longer asked. */
export interface WriteProgress {
  took(): boolean;
  stop(): void;
}

/**
 * Starts watching what an answer's client takes. Over HTTP/1.x, by its connection: all written to it less what
 * waits. Over HTTP/2 the connection's bytes move with every stream of the session (and with its pings), so an
 * answer is judged by its own stream: a write the client took all of (`drain`), or less waiting than at the last
 * look. A stream's progress is seen a write at a time (a result's writes are 64 KiB: `endWith`), not byte by byte.
 */
export function watchProgress(res: ServerResponse): WriteProgress {
  if (http2StreamOf(res)) return new StreamProgress(res);
  let taken = takenBytes(res);
  return {
    took() {
      const now = takenBytes(res);
      const moved = now !== taken;
      taken = now;
      return moved;
    },
    stop: () => undefined,
  };
}

/**
 * A figure of an HTTP/1.x connection that grows as, and only as, its client takes bytes: all written to it
 * (`bytesWritten` counts what is queued) less what is queued, less what of the write under way the socket's handle
 * has yet to hand on (its write queue, which shrinks as a large write drains). No count of bytes: the write under
 * way is taken off twice until it completes.
 */
function takenBytes(res: ServerResponse): number {
  const handle = (res.socket as { _handle?: { writeQueueSize?: number } } | null)?._handle;
  return (res.socket?.bytesWritten ?? 0) - res.writableLength - (handle?.writeQueueSize ?? 0);
}

/** {@link WriteProgress} of an HTTP/2 answer, by its own stream's writes. */
class StreamProgress implements WriteProgress {
  private drained = false;
  private waiting: number;
  private readonly onDrain = () => (this.drained = true);

  constructor(private readonly res: ServerResponse) {
    this.waiting = waitingBytes(res);
    res.on('drain', this.onDrain);
  }

  took(): boolean {
    const now = waitingBytes(this.res);
    const moved = this.drained || now < this.waiting;
    this.drained = false;
    this.waiting = now;
    return moved;
  }

  stop(): void {
    this.res.off('drain', this.onDrain);
  }
}

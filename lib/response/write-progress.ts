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
 * Bytes handed to a response and not yet taken by its client. Over HTTP/1.x: queued in the response and its socket,
 * and in the socket's write queue below them (which shrinks as a large write drains, byte by byte). Over HTTP/2:
 * queued in the answer's own stream, which waits for the client's flow-control window; the connection's queue is
 * every stream's.
 */
function queuedBytes(res: ServerResponse): number {
  if (http2StreamOf(res)) return res.writableLength;
  const handle = (res.socket as { _handle?: { writeQueueSize?: number } } | null)?._handle;
  return res.writableLength + (handle?.writeQueueSize ?? 0);
}

/** Bytes of an answer not yet taken by its client: those queued ({@link queuedBytes}) and those its writer holds back. */
export function waitingBytes(res: ServerResponse): number {
  return queuedBytes(res) + ((res as WithUnsent)[UNSENT]?.() ?? 0);
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

/** Bytes of a connection the client has taken: all written to it (`bytesWritten` counts what is queued) less what is queued. */
function takenBytes(res: ServerResponse): number {
  return (res.socket?.bytesWritten ?? 0) - queuedBytes(res);
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

import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, type Http2Stream } from 'node:http2';

/**
 * How long a refused upload is read and discarded before its connection closes: at most this many bytes, this long
 * in all, and this long without a byte (nginx's `lingering_close` does the same for its 413).
 */
export const LINGERING_CLOSE = { maxBytes: 16 * 1024 * 1024, maxMs: 30_000, idleMs: 5_000 } as const;

/**
 * What ends a lingering close sooner than {@link LINGERING_CLOSE} allows: the mount's shutdown (`MountClosing`), which
 * ends those under way once its delivery grace is over.
 */
export interface LingeringBound {
  /** How long a lingering close begun now may last at most, given its own bound `maxMs`. */
  writeBound(maxMs: number): number;
  /** Takes a lingering close under way, `cut` (ended) when it may last no longer; the function returned lets it go. */
  trackLingering(cut: () => void): () => void;
}

/** The bound of the lingering close of a request's answer, where the mount set one (`lingerWithin`). */
const boundOf = new WeakMap<IncomingMessage, LingeringBound>();

/** Bounds the lingering close of an answer to `req` sent from now by `bound` too. */
export function lingerWithin(req: IncomingMessage, bound: LingeringBound): void {
  boundOf.set(req, bound);
}

/**
 * Reads and discards the rest of a request body within {@link LINGERING_CLOSE} (and its {@link LingeringBound}), then
 * calls `done` once: with true when the body ended (or the request closed), false when a bound ran out first.
 */
function discardRest(req: IncomingMessage, done: (ended: boolean) => void): void {
  const bound = boundOf.get(req);
  const maxMs = bound ? bound.writeBound(LINGERING_CLOSE.maxMs) : LINGERING_CLOSE.maxMs;
  let discarded = 0;
  const finish = (ended: boolean) => {
    clearTimeout(idle);
    clearTimeout(total);
    letGo?.();
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onEnd);
    done(ended);
  };
  const onEnd = () => finish(true);
  const idle = setTimeout(() => finish(false), LINGERING_CLOSE.idleMs).unref();
  const total = setTimeout(() => finish(false), maxMs).unref();
  const letGo = bound?.trackLingering(() => finish(false));
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGERING_CLOSE.maxBytes) finish(false);
    else idle.refresh();
  };
  req.on('data', onData);
  req.once('end', onEnd);
  req.once('close', onEnd);
  req.resume();
}

/**
 * Ends a response whose answer is written while the request body is still arriving: closing at once would reset
 * the connection under the upload, and a client still sending (fetch, curl) would see the reset instead of the
 * answer. So the rest of the body is read and discarded, within {@link LINGERING_CLOSE}, then the response ends.
 */
export function endAfterBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete || req.destroyed) res.end();
  else discardRest(req, () => res.end());
}

/**
 * Bounds the rest of a request body that an answer went out before (a refusal, sent keep-alive): the body is read
 * and discarded as Node would, and the connection is closed only if it has not all arrived within
 * {@link LINGERING_CLOSE}. A body already in the socket's buffer ends at once and keeps the connection; one
 * dripped for ever does not hold it (Fastify sets no request timeout).
 */
export function boundRestOfBody(req: IncomingMessage): void {
  discardRest(req, (ended) => {
    if (!ended) req.socket.destroy();
  });
}

/**
 * HTTP/2's way with an answer sent while the request body still arrives, in place of both above: the answer ends now
 * and the stream is reset with NO_ERROR once it is sent (RFC 9113 §8.1), which asks the client to stop sending and
 * keep the answer. Nothing more is read, the connection's other streams go on, and the stream does not stay open for
 * as long as the client keeps sending.
 */
export function endBeforeBody(res: ServerResponse, stream: Http2Stream, text: string): void {
  res.end(text);
  // Reset once the answer is flushed, as Node would defer it; the stream is not marked closed before, so an answer
  // its client never takes can still be cut off (CANCEL: cutOff).
  stream.once('finish', () => stream.close(constants.NGHTTP2_NO_ERROR));
}

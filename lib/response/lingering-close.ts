import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * How long a refused upload is read and discarded before its connection closes: at most this many bytes, this long
 * in all, and this long without a byte (nginx's `lingering_close` does the same for its 413).
 */
export const LINGERING_CLOSE = { maxBytes: 16 * 1024 * 1024, maxMs: 30_000, idleMs: 5_000 } as const;

/**
 * Ends a response whose answer is written while the request body is still arriving: closing at once would reset
 * the connection under the upload, and a client still sending (fetch, curl) would see the reset instead of the
 * answer. So the rest of the body is read and discarded, within {@link LINGERING_CLOSE}, then the response ends.
 */
export function endAfterBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete || req.destroyed) {
    res.end();
    return;
  }
  let discarded = 0;
  const idle = setTimeout(() => end(), LINGERING_CLOSE.idleMs).unref();
  const total = setTimeout(() => end(), LINGERING_CLOSE.maxMs).unref();
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGERING_CLOSE.maxBytes) end();
    else idle.refresh();
  };
  const end = () => {
    clearTimeout(idle);
    clearTimeout(total);
    req.off('data', onData);
    req.off('end', end);
    req.off('close', end);
    res.end();
  };
  req.on('data', onData);
  req.once('end', end);
  req.once('close', end);
  req.resume();
}

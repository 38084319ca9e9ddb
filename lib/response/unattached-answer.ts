import type { IncomingMessage, ServerResponse } from 'node:http';

import { cutOff, http2StreamOf } from '../util/node-http.js';
import { hasAnswerStream } from './answer-stream.js';
import type { MountClosing } from './mount-closing.js';
import type { WaitingAnswer, WaitingAnswers } from './waiting-answers.js';
import { waitingBytes } from './write-progress.js';

/** What bounds an answer the mount sends without an answer stream: its shutdown state and `writeStallTimeoutMs`. */
export interface UnattachedBounds {
  readonly shutdown: Pick<MountClosing, 'closeAfter' | 'boundLingering' | 'writeBound'>;
  readonly stallMs: number;
  /** The mount's waiting answers, where what waits of the answer may be large (a refusal echoes its request's id). */
  readonly waiting?: WaitingAnswers;
}

/**
 * Sends an answer without an answer stream (a refusal, the fallthrough's, the answer to an unanswered request), which
 * `send` writes, within `bounds`: once the mount is closing it closes its connection and its lingering close ends by
 * the delivery grace; one its client does not take is cut off (`boundUnattached`, sooner once shutting down).
 */
export function sendUnattached(req: IncomingMessage, res: ServerResponse, bounds: UnattachedBounds, send: () => void): void {
  bounds.shutdown.closeAfter(res);
  bounds.shutdown.boundLingering(req);
  send();
  boundUnattached(res, bounds.shutdown.writeBound(bounds.stallMs), bounds.waiting);
}

/**
 * Bounds an unattached answer (the write watch bounds every other): one its client has not taken whole within `stallMs`
 * (`writeStallTimeoutMs`) is cut off, and what waits of it counts among the mount's `waiting` answers until then.
 * Over HTTP/2 a client can keep its stream's flow-control window shut for as long as its session lives; over HTTP/1.x
 * a client that stops reading leaves what its socket did not take (a refusal echoes the request's id, which may be
 * as long as the body). An HTTP/1.x answer its client took whole is not cut though it has not ended: its lingering
 * close (`endAfterBody`) keeps it open, within its own bounds.
 */
function boundUnattached(res: ServerResponse, stallMs: number, waiting?: WaitingAnswers): void {
  if (hasAnswerStream(res) || res.writableFinished) return;
  const held = waitingBytes(res);
  if (held === 0 && !http2StreamOf(res)) return;
  const answer: WaitingAnswer = { cutForRoom: () => cutOff(res) };
  if (held > 0) waiting?.count(answer, held, false);
  const timer = setTimeout(() => res.writableFinished || (waitingBytes(res) === 0 && !http2StreamOf(res)) || cutOff(res), stallMs).unref();
  res.once('close', () => (clearTimeout(timer), waiting?.forget(answer)));
}

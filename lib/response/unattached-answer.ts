import type { IncomingMessage, ServerResponse } from 'node:http';

import { boundUnattached, type AnswerBounds } from './answer-stream.js';
import type { MountClosing } from './mount-closing.js';

/** What bounds an answer the mount sends without an answer stream: its shutdown state and `writeStallTimeoutMs`. */
export interface UnattachedBounds {
  readonly shutdown: Pick<MountClosing, 'closeAfter' | 'boundLingering' | 'writeBound'>;
  readonly stallMs: number;
  /** The mount's waiting answers, where what waits of the answer may be large (a refusal echoes its request's id). */
  readonly waiting?: AnswerBounds['waiting'];
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

import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { Injectable, type OnModuleDestroy } from '@nestjs/common';

/** How long the shutdown waits for the answers of the streams it ended to be written before the reuse grace starts all the same. */
export const ENDED_STREAM_WRITE_MS = 1000;

/**
 * The reuse grace: how long a connection whose stream the shutdown ended stays open once that answer is written,
 * before the server may close it: a keep-alive client that reuses the connection at once is answered (with
 * `Connection: close`), not reset.
 */
export const REUSE_GRACE_MS = 100;

/**
 * Whether the application is shutting down, set at its first shutdown hook, before its HTTP server closes. From
 * then on each answer of the mount closes its connection after it (`Connection: close`): the server's close waits
 * for busy connections, and a keep-alive client sending request after request would otherwise hold it open for ever.
 */
@Injectable()
export class MountClosing implements OnModuleDestroy {
  closing = false;

  onModuleDestroy(): void {
    this.closing = true;
  }

  /** Once closing, makes `res` close its connection after it; called before its headers go. */
  closeAfter(res: ServerResponse): void {
    if (this.closing) res.shouldKeepAlive = false;
  }

  /**
   * Awaited by a shutdown hook that ended streams begun before shutdown (their headers said keep-alive): waits for
   * `written` (their answers written, at most {@link ENDED_STREAM_WRITE_MS}), then the reuse grace; nothing when
   * there are none.
   */
  async reuseGrace(written: readonly Promise<unknown>[]): Promise<void> {
    if (!written.length) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(written), new Promise<void>((resolve) => (timer = setTimeout(resolve, ENDED_STREAM_WRITE_MS)))]);
    clearTimeout(timer);
    await sleep(REUSE_GRACE_MS);
  }
}

import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';

import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';

/** How long the shutdown waits for the answers of the streams it ended to be written before the reuse grace starts all the same. */
export const ENDED_STREAM_WRITE_MS = 1000;

/**
 * The reuse grace: how long a connection whose stream the shutdown ended stays open once that answer is written,
 * before the server may close it: a keep-alive client that reuses the connection at once is answered (with
 * `Connection: close`), not reset.
 */
export const REUSE_GRACE_MS = 100;

/** An answer under way, as the shutdown deadline sees it (`AnswerStream`). */
export interface AnswerUnderWay {
  whenClosed(): Promise<void>;
  /** Ends the answer with the `shutting_down` error and stops its run; a no-op once answered. */
  endForShutdown(): void;
}

/**
 * Whether the application is shutting down, set at its first shutdown hook, before its HTTP server closes. From
 * then on each answer of the mount closes its connection after it (`Connection: close`): the server's close waits
 * for busy connections, and a keep-alive client sending request after request would otherwise hold it open for ever.
 * The shutdown waits `shutdownGraceMs` for the answers under way, then ends those still open (the shutdown deadline).
 */
@Injectable()
export class MountClosing implements OnModuleDestroy, BeforeApplicationShutdown {
  closing = false;
  /** The mount's answers attached and not yet closed. */
  private readonly underWay = new Set<AnswerUnderWay>();
  /** When the shutdown deadline passes: `shutdownGraceMs` after the application's first shutdown hook. */
  private deadlineAt: number | undefined;

  constructor(@Inject(MCP_OPTIONS) private readonly options: Pick<McpResolvedOptions, 'shutdownGraceMs'>) {}

  onModuleDestroy(): void {
    this.closing = true;
    // Set at the first hook, which every mount's runs before any waits: several mounts share one deadline.
    this.deadlineAt = Date.now() + this.options.shutdownGraceMs;
  }

  /** An answer is under way (attached); `settled` once it closed. */
  track(answer: AnswerUnderWay): void {
    this.underWay.add(answer);
  }

  settled(answer: AnswerUnderWay): void {
    this.underWay.delete(answer);
  }

  /**
   * The shutdown deadline: waits for the answers under way to close (those arriving meanwhile too, as the server
   * still takes requests), until `shutdownGraceMs` after the shutdown began, then ends each still under way, so a
   * call that never ends cannot hold the server's close for ever.
   */
  async beforeApplicationShutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadlineAt = (this.deadlineAt ??= Date.now() + this.options.shutdownGraceMs);
    const passed = new Promise<true>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadlineAt - Date.now()), true)));
    while (this.underWay.size) {
      const closed = Promise.all([...this.underWay].map((answer) => answer.whenClosed())).then(() => false as const);
      if (await Promise.race([closed, passed])) break;
    }
    clearTimeout(timer);
    for (const answer of [...this.underWay]) answer.endForShutdown();
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

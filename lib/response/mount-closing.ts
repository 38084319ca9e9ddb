import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';

import type { ShutdownDeadline, WorkUnderWay } from '../contracts/shutdown-deadline.js';
import { shuttingDown } from '../errors/shutting-down.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { http2StreamOf } from '../util/node-http.js';
import { whenSettled } from '../util/quiet-promise.js';
import { HostConnections } from './host-connections.js';
import { lingerWithin, type LingeringBound } from './lingering-close.js';

/**
 * The reuse grace: how long the shutdown waits, once the last answer that closed during it did, before the server
 * may close the connections: a stream begun before shutdown said keep-alive, and a client that reuses its
 * connection at once is answered (with `Connection: close`), not reset.
 */
const REUSE_GRACE_MS = 100;

/**
 * The delivery grace: how long an answer the shutdown deadline ended may take to reach its client before it is cut off,
 * so a client that takes nothing (an HTTP/2 stream whose window it keeps shut) holds the close this long, not
 * `writeStallTimeoutMs`.
 */
const DELIVERY_GRACE_MS = 1_000;

/**
 * Whether the application is shutting down, set at its first shutdown hook, before its HTTP server closes. From
 * then on each answer of the mount closes its connection after it (`Connection: close`; over HTTP/2 a GOAWAY closes
 * its session): the server's close waits for busy connections, and a keep-alive client sending request after request
 * would otherwise hold it open for ever.
 * The shutdown waits `shutdownGraceMs` for the answers under way, then ends those still open (the shutdown deadline),
 * and a second later (the delivery grace) cuts what still holds the server's close: answers not taken, lingering
 * closes, and the host connections carrying no request (`watchServer`).
 */
@Injectable()
export class MountClosing implements OnModuleDestroy, BeforeApplicationShutdown, ShutdownDeadline, LingeringBound {
  closing = false;
  /**
   * Whether the shutdown deadline has passed: its sweep ended the answers then under way, an answer tracked from then
   * on is ended at once, and a request arriving is refused before it runs (`refuseAfterDeadline`).
   */
  pastDeadline = false;
  /** The mount's answers attached and not yet closed. */
  private readonly underWay = new Set<WorkUnderWay>();
  /** Settles once the shutdown deadline passed and its sweep ran; armed at the application's first shutdown hook. */
  private deadline: Promise<void> | undefined;
  /** When the shutdown deadline passes (epoch ms), once armed. */
  private deadlineAt = Infinity;
  /** When an answer last closed (or was ended) once shutdown had begun: the reuse grace runs from there. */
  private lastSettledAt: number | undefined;
  /** The lingering closes of the mount's answers under way (`trackLingering`): cut once the delivery grace is over. */
  private readonly lingering = new Set<() => void>();
  /** What ends as the shutdown begins (`whenClosing`). */
  private readonly atClosing: (() => void)[] = [];
  /** The host server's sessions and connections (`watchServer`). */
  private readonly hostConnections = new HostConnections(DELIVERY_GRACE_MS);

  constructor(@Inject(MCP_OPTIONS) private readonly options: Pick<McpResolvedOptions, 'shutdownGraceMs'>) {}

  onModuleDestroy(): void {
    if (!this.closing) {
      this.closing = true;
      for (const end of this.atClosing) end();
    }
    this.armDeadline();
  }

  /**
   * Runs `end` as the shutdown begins: at the application's first hook, which every mount's runs before any waits,
   * so what ends then (listen streams, waiting input requests) does not wait for another mount's calls under way.
   */
  whenClosing(end: () => void): void {
    this.atClosing.push(end);
  }

  /**
   * Arms the shutdown deadline, once: at the first hook, which every mount's runs before any waits, so several mounts
   * share one deadline; kept if the hooks run again (Nest 11 starts a second teardown for a signal arriving during
   * app.close()). Its sweep runs whether or not the shutdown still waits: a call arriving once the wait is over (in
   * the reuse grace, or while the server's close waits for other connections) is ended at the deadline all the same.
   */
  private armDeadline(): Promise<void> {
    return (this.deadline ??= new Promise<void>((resolve) => {
      this.deadlineAt = Date.now() + this.options.shutdownGraceMs;
      const timer = setTimeout(() => {
        this.pastDeadline = true;
        this.endUnderWay();
        setTimeout(() => this.deliveryOver(), DELIVERY_GRACE_MS).unref();
        resolve();
      }, this.options.shutdownGraceMs);
      // The server's close, not this timer, keeps the process alive while calls are under way; once it is closed,
      // the sweep finds nothing.
      timer.unref();
    }));
  }

  /**
   * The delivery grace is over: what the deadline ended and its client has not taken is cut, so are the lingering
   * closes under way (begun before shutdown too) and what of the host connections holds the server's close.
   */
  private deliveryOver(): void {
    this.endUnderWay();
    for (const cut of [...this.lingering]) cut();
    this.hostConnections.deliveryOver();
  }

  /** Ends all work under way (`endForShutdown`). */
  private endUnderWay(): void {
    const ended = [...this.underWay];
    for (const work of ended) work.endForShutdown();
    if (ended.length) this.lastSettledAt = Date.now();
  }

  /**
   * Work is under way (an answer attached, a body read); `settled` once it ended. Past the deadline it is ended at once
   * instead.
   */
  track(work: WorkUnderWay): void {
    if (!this.pastDeadline) return void this.underWay.add(work);
    work.endForShutdown();
    this.lastSettledAt = Date.now();
  }

  settled(work: WorkUnderWay): void {
    this.underWay.delete(work);
    if (this.closing) this.lastSettledAt = Date.now();
  }

  /**
   * How long an answer sent now without an answer stream (a refusal, the fallthrough's) may wait for its client
   * before it is cut: `stallMs`, but once shutting down no later than the delivery grace after the deadline, as an
   * answer under way.
   */
  writeBound(stallMs: number): number {
    return Math.min(stallMs, Math.max(0, this.deadlineAt - Date.now()) + DELIVERY_GRACE_MS);
  }

  /**
   * Bounds the lingering close of an answer sent now to `req` (the rest of its body read and discarded) by the
   * shutdown: once shutting down it ends within {@link writeBound}, and one under way when the delivery grace is over
   * is cut then, so an upload still dripping does not hold the close for `LINGERING_CLOSE.maxMs`.
   */
  boundLingering(req: IncomingMessage): void {
    lingerWithin(req, this);
  }

  trackLingering(cut: () => void): () => void {
    this.lingering.add(cut);
    return () => this.lingering.delete(cut);
  }

  /**
   * Refuses a request arriving once the shutdown deadline has passed (the server still reads the connections its
   * close waits for), before it runs: nothing would end it any more.
   * @throws {McpMethodError} `shutting_down`, once `pastDeadline`
   */
  refuseAfterDeadline(): void {
    if (this.pastDeadline) throw shuttingDown('a request arriving after the shutdown deadline (shutdownGraceMs) is not run');
  }

  /**
   * The shutdown's wait: for the answers under way to close (those arriving meanwhile too, as the server still takes
   * requests), or for the shutdown deadline, whose sweep ends each still under way, so a call that never ends cannot
   * hold the server's close for ever; then the reuse grace. What ends as the shutdown begins (`whenClosing`) is
   * ending when this waits, on every mount.
   */
  async beforeApplicationShutdown(): Promise<void> {
    const passed = this.armDeadline().then(() => true as const);
    while (this.underWay.size && !this.pastDeadline) {
      const waiting = [...this.underWay];
      const closed = Promise.all(waiting.map((work) => work.whenClosed())).then(() => false as const);
      if (await Promise.race([closed, passed])) break;
      // What closed counts as settled now, should its own `settled` come later: the wait must not spin on microtasks.
      for (const work of waiting) this.settled(work);
    }
    const lastClosed = this.lastSettledAt;
    if (lastClosed !== undefined) await sleep(Math.max(0, lastClosed + REUSE_GRACE_MS - Date.now()));
    this.hostConnections.closeSessions();
  }

  /**
   * Watches the host's `server` for what the shutdown must close that no answer of the mount closes (the host
   * connections): its HTTP/2 sessions, closed gracefully once the shutdown's wait is over, and its HTTP/1.x connections
   * carrying no request, cut once the delivery grace is over.
   */
  watchServer(server: EventEmitter): void {
    this.hostConnections.watch(server);
  }

  /**
   * `pending`, bounded by the shutdown deadline: work a request waits on before it has an answer under way (the auth
   * provider's decision) counts as under way, and once the deadline passes the promise rejects with `shutting_down`,
   * so a provider that never answers cannot hold the server's close for ever.
   */
  bounded<T>(pending: Promise<T>, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiting: WorkUnderWay = {
        whenClosed: () => whenSettled(pending),
        endForShutdown: () => reject(shuttingDown(what)),
      };
      this.track(waiting);
      pending.then(resolve, reject).finally(() => this.settled(waiting));
    });
  }

  /**
   * Once closing, makes `res` close its connection after it; called before its headers go (an event stream's final
   * answer comes after them: its HTTP/1.1 connection is the server's to close once idle). An HTTP/2 answer has no
   * `Connection: close`: its session is closed gracefully instead (GOAWAY), which refuses new streams and lets those
   * under way end, this one included.
   */
  closeAfter(res: ServerResponse): void {
    if (!this.closing) return;
    const stream = http2StreamOf(res);
    if (stream) this.hostConnections.closeSession(stream.session);
    else if (!res.headersSent) res.shouldKeepAlive = false;
  }
}

import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';

import { McpEventBus } from '../contracts/mcp-event-bus.js';
import type { JsonRpcId } from '../contracts/request-record.js';
import { capacityRefusal } from '../errors/capacity-refusal.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import type { AnswerStream } from '../response/answer-stream.js';
import { MountClosing } from '../response/mount-closing.js';
import { mountName } from '../telemetry/channels.js';
import { ListenStream, type ListenBudget } from './listen-stream.js';
import type { SubscriptionFilter } from './subscription-filter.js';

/** How long shutdown waits for a listen stream's result to be flushed before it closes the connection anyway. */
const LISTEN_SHUTDOWN_GRACE_MS = 1000;

/**
 * The open listen streams of this mount: at most `subscriptions.maxStreams` of them, holding at most
 * `subscriptions.maxOpenBytes` together (a stream costs its client nothing to hold open, so these bound them; each
 * holds its request and its acknowledged filter until it ends, and what waits for its reader). At application
 * shutdown (before the HTTP server stops) it ends each gracefully: the listen result, then the close, waiting at
 * most {@link LISTEN_SHUTDOWN_GRACE_MS} for a reader that does not take it. A listen request arriving during
 * shutdown is acknowledged and ended at once.
 */
@Injectable()
export class ListenStreams implements BeforeApplicationShutdown {
  private readonly streams = new Set<ListenStream>();
  /** The streams the shutdown ended, each until closed or cut (`endForShutdown`). */
  private ending: Promise<unknown> = Promise.resolve();
  private readonly bounds: McpResolvedOptions['subscriptions'];
  /** What its streams' events name the mount. */
  private readonly mount: string;
  /** The bytes the open streams hold: each one's request and filter, counted when it opened, and what waits for its reader. */
  private heldBytes = 0;
  private readonly budget: ListenBudget = {
    take: (bytes) => {
      if (bytes > 0 && this.heldBytes + bytes > this.bounds.maxOpenBytes) return false;
      this.heldBytes += bytes;
      return true;
    },
  };
  constructor(
    @Inject(McpEventBus) private readonly bus: McpEventBus,
    @Inject(MCP_OPTIONS) options: McpResolvedOptions,
    @Inject(MountClosing) private readonly shutdown: MountClosing,
  ) {
    this.bounds = options.subscriptions;
    this.mount = mountName(options.path);
    shutdown.whenClosing(() => this.endAll());
  }

  /** How many listen streams are open. */
  get size(): number {
    return this.streams.size;
  }

  /** The bytes the open streams hold together, as `maxOpenBytes` counts them. */
  get held(): number {
    return this.heldBytes;
  }

  /**
   * Opens a listen stream on `answer` and acknowledges it; its `ended` says when and how it ends. `bytes` is what
   * the stream holds while open (its request and its acknowledged filter).
   * @throws {McpMethodError} a capacity refusal (503) when `maxStreams` are open, or when the open streams would hold
   * more than `maxOpenBytes` with this one, before anything is streamed
   */
  async open(id: JsonRpcId, filter: SubscriptionFilter, answer: AnswerStream, bytes: number): Promise<ListenStream> {
    const { maxStreams, maxOpenBytes } = this.bounds;
    if (this.streams.size >= maxStreams)
      throw capacityRefusal('too_many_listen_streams', `${maxStreams} listen streams are already open on this server`, 'retry later, or close a stream you no longer need');
    if (!this.budget.take(bytes))
      throw capacityRefusal(
        'listen_bytes_limit',
        `the listen streams open on this server already hold ${this.heldBytes} of the ${maxOpenBytes} bytes they may, and this one would hold ${bytes}`,
        'retry later, or listen with a smaller request',
      );
    const stream = new ListenStream(id, filter, answer, this.bounds, this.budget, this.mount);
    // Opened once the shutdown began: `endAll` has run, so this stream ends as soon as it is acknowledged.
    const late = this.shutdown.closing;
    this.streams.add(stream);
    void stream.ended.then(() => {
      this.streams.delete(stream);
      this.budget.take(-bytes);
    });
    try {
      await stream.start(this.bus);
    } catch (fault) {
      stream.end('gone');
      throw fault;
    }
    if (late) this.endForShutdown(stream);
    return stream;
  }

  /** Ends every stream as the shutdown begins (`MountClosing.whenClosing`), those still being opened too. */
  private endAll(): void {
    for (const stream of this.streams) this.endForShutdown(stream);
  }

  /**
   * Ends a stream gracefully, with its result; one whose client has not taken it within `LISTEN_SHUTDOWN_GRACE_MS` is
   * cut. `ending` settles once each has closed or been cut.
   */
  private endForShutdown(stream: ListenStream): void {
    stream.end();
    this.ending = Promise.all([this.ending, stream.closed(LISTEN_SHUTDOWN_GRACE_MS)]);
  }

  /** Nest's hook, before the HTTP server closes (it would wait for these connections): waits for every stream the shutdown ended. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.ending;
  }
}

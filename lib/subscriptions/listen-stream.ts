import { isMcpChangeEvent, type McpChangeEvent, type McpEventBus, type McpUnsubscribe } from '../contracts/mcp-event-bus.js';
import type { JsonRpcId } from '../contracts/request-record.js';
import { faultKind } from '../errors/fault-containment.js';
import type { McpMethodError } from '../errors/mcp-method.error.js';
import { unavailable } from '../errors/unavailable.js';
import type { AnswerStream } from '../response/answer-stream.js';
import { publish } from '../telemetry/channels.js';
import { bounded } from '../util/bounded.js';
import { quiet } from '../util/quiet-promise.js';
import { withinTime } from '../util/within-time.js';
import { changeJsonHead, changeJsonTail, SUBSCRIPTION_ID_META_KEY } from './change-json.js';
import { coversUri, type SubscriptionFilter } from './subscription-filter.js';

/** How a listen stream ended: `shutdown` (the server ended it; its result follows), `gone` (the client left, or it was dropped). */
export type ListenEnd = 'shutdown' | 'gone';

/** The bounds a listen stream keeps (the `subscriptions` module option, resolved). */
export interface ListenBounds {
  /** The most bytes the stream may hold for a reader that does not keep up; past it the stream is dropped. */
  readonly maxBufferedBytes: number;
  /** Milliseconds the bus's `subscribe` may take to resolve. */
  readonly subscribeTimeoutMs: number;
}

/**
 * What the open streams of a mount may hold together (`maxOpenBytes`): `take` adds bytes (false, taking nothing,
 * when they would not fit) or gives them back (a negative count).
 */
export interface ListenBudget {
  take(bytes: number): boolean;
}

/** How many events heard between subscribing and acknowledging are kept for after the acknowledgment. */
const EARLY_EVENTS_MAX = 64;

/**
 * One open `subscriptions/listen` request: subscribed to the event bus, it sends its acknowledged filter first,
 * then each change event the filter wants, tagged with its subscription id, and a keep-alive comment every
 * `keepAliveMs`. A reader that lets more than `maxBufferedBytes` wait, or more than the mount's budget has left
 * (what waits is taken from it), is dropped (the connection closed, no result: a client reconnects and lists
 * again), never waited for nor buffered without bound. Whatever ends it (the client, the drop, `end()`), it
 * unsubscribes from the bus once and gives back what it took.
 */
export class ListenStream {
  private readonly meta: Readonly<Record<string, unknown>>;
  /** What ends each change notification's JSON on this stream ({@link changeJsonTail}), and its bytes. */
  private readonly tail: string;
  private readonly tailBytes: number;
  private readonly uris: ReadonlySet<string>;
  private readonly early: McpChangeEvent[] = [];
  private acknowledged = false;
  private ending: ListenEnd | undefined;
  private overflowCheck: NodeJS.Immediate | undefined;
  private unsubscribe: McpUnsubscribe | undefined;
  /** The bytes waiting for the reader as last counted, taken from the budget. */
  private waiting = 0;
  private settle!: (end: ListenEnd) => void;
  /** Resolves with how the stream ended. */
  readonly ended: Promise<ListenEnd> = new Promise((resolve) => (this.settle = resolve));

  constructor(
    readonly id: JsonRpcId,
    readonly filter: SubscriptionFilter,
    private readonly answer: AnswerStream,
    private readonly bounds: ListenBounds,
    private readonly budget: ListenBudget,
    /** What its events name the mount. */
    private readonly mount: string,
  ) {
    this.meta = Object.freeze({ [SUBSCRIPTION_ID_META_KEY]: id });
    this.tail = changeJsonTail(id);
    this.tailBytes = Buffer.byteLength(this.tail);
    this.uris = new Set(filter.resourceSubscriptions ?? []);
    if (answer.signal.aborted) this.finish('gone');
    else answer.signal.addEventListener('abort', () => this.finish('gone'), { once: true });
  }

  /**
   * Subscribes to the bus, then acknowledges (the first message) and starts the keep-alives; resolves once done.
   * @throws {McpMethodError} `event_bus_unavailable` (503) when the bus has not confirmed the subscription within
   * `subscribeTimeoutMs` (one that comes later is let go at once)
   */
  async start(bus: McpEventBus): Promise<void> {
    const unsubscribe = await this.subscribe(bus);
    if (this.ending) this.release(unsubscribe);
    else this.unsubscribe = unsubscribe;
    if (this.ending === 'gone') return;
    this.acknowledged = true; // even when shut down meanwhile: the acknowledgment comes before the result
    const ack = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: this.filter, _meta: this.meta } });
    this.send(ack, Buffer.byteLength(ack));
    for (const event of this.early.splice(0)) this.deliver(event);
    if (this.ending) return;
    // At each keep-alive, what waits is counted again, so what the socket took meanwhile goes back to the budget.
    this.answer.onKeepAlive(() => this.ending || (this.overflowCheck ??= setImmediate(() => this.checkOverflow())));
  }

  /** Ends the stream: `shutdown`, the server's graceful end (the listen result is sent next, by whoever awaits `ended`), or `gone`. */
  end(how: ListenEnd = 'shutdown'): void {
    this.finish(how);
  }

  /** The `_meta` of the listen result that closes the stream gracefully. */
  get resultMeta(): Readonly<Record<string, unknown>> {
    return this.meta;
  }

  /** Waits until the stream's response is closed, at most `graceMs`; then closes it, flushed or not. */
  async closed(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.answer.whenClosed(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.answer.abandon();
  }

  private hear(event: unknown): void {
    if (this.ending || !isMcpChangeEvent(event) || !this.wants(event)) return;
    if (this.acknowledged) this.deliver(event);
    else if (this.early.length < EARLY_EVENTS_MAX) this.early.push(event);
    else this.drop(); // cannot happen with a bus that delivers nothing before `subscribe` resolves
  }

  private wants(event: McpChangeEvent): boolean {
    return event.kind === 'resourceUpdated' ? coversUri(this.uris, event.uri) : this.filter[event.kind] === true;
  }

  private deliver(event: McpChangeEvent): void {
    if (this.ending) return;
    const head = changeJsonHead(event);
    this.send(head.text + this.tail, head.bytes + this.tailBytes);
  }

  /** Queues one message (`bytes` long in UTF-8); what waits is checked once the tick's writes are done. */
  private send(json: string, bytes: number): void {
    this.answer.queue(json, bytes);
    this.overflowCheck ??= setImmediate(() => this.checkOverflow());
  }

  /**
   * Drops the stream when more than `maxBufferedBytes` still wait once the socket took what it could, or more than
   * the budget has left; else counts what waits against the budget. Checked after the writes of one tick of the
   * event loop, not at each: a stream's messages of one tick go out as one write at its end, so counting before
   * then would cut a reader that keeps up from an acknowledgment or a burst of events.
   */
  private checkOverflow(): void {
    this.overflowCheck = undefined;
    if (this.ending) return;
    const buffered = this.answer.buffered;
    if (buffered > this.bounds.maxBufferedBytes || !this.budget.take(buffered - this.waiting)) return this.drop();
    this.waiting = buffered;
  }

  /** A reader too far behind: the connection is closed and its buffer freed (the signal's abort finishes the stream). */
  private drop(): void {
    this.answer.abandon();
    this.finish('gone');
  }

  private finish(end: ListenEnd): void {
    if (this.ending) return;
    this.ending = end;
    clearImmediate(this.overflowCheck);
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    if (unsubscribe) this.release(unsubscribe);
    this.budget.take(-this.waiting);
    this.waiting = 0;
    this.early.length = 0;
    this.settle(end);
  }

  /** The bus's subscription of this stream, confirmed within `subscribeTimeoutMs`. */
  private async subscribe(bus: McpEventBus): Promise<McpUnsubscribe> {
    const subscribing = Promise.resolve().then(() => bus.subscribe((event) => this.hear(event)));
    const ms = this.bounds.subscribeTimeoutMs;
    try {
      return await withinTime(subscribing, ms, () => busUnavailable(ms));
    } catch (fault) {
      quiet(subscribing.then((unsubscribe) => this.release(unsubscribe)));
      throw fault;
    }
  }

  /** Calls the bus's unsubscribe in a microtask, once the current call returns; its failure is reported (`mcp:seam:error`), never thrown. */
  private release(unsubscribe: McpUnsubscribe): void {
    const { mount } = this;
    void Promise.resolve()
      .then(unsubscribe)
      .catch((fault: unknown) =>
        publish('mcp:seam:error', () => ({ mount, seam: 'McpEventBus', call: 'unsubscribe', exception: faultKind(fault), error: bounded(fault, 200), fault })),
      );
  }
}

/** The refusal of a listen request whose subscription the event bus did not confirm in time. */
function busUnavailable(ms: number): McpMethodError {
  return unavailable('event_bus_unavailable', `the event bus did not confirm the subscription within ${ms} ms (subscriptions.subscribeTimeoutMs); retry later.`);
}

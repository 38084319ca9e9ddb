import type { IncomingMessage, ServerResponse } from 'node:http';

import { requestRecord } from '../contracts/request-record.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { shuttingDown } from '../errors/shutting-down.js';
import { publish, type McpTelemetryEvents } from '../telemetry/channels.js';
import { bounded } from '../util/bounded.js';
import { cutOff } from '../util/node-http.js';
import { methodErrorAnswer } from './method-error-answer.js';
import type { MountClosing } from './mount-closing.js';
import { endWith, sendJson, sendJsonText } from './send.js';
import { telemetryId } from './telemetry-id.js';
import type { WaitingAnswer, WaitingAnswers } from './waiting-answers.js';
import { waitingBytes, watchProgress } from './write-progress.js';

/** The SSE response headers: no proxy buffering, no caching. */
const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform', // no-transform: a host's compression() would hold the events back
  'x-accel-buffering': 'no',
} as const;

/** Where a response's answer stream is kept (one per response, set by `attach`). */
const STREAM = Symbol('nest-mcp.answer-stream');

/** How many times per `writeStallTimeoutMs` a backed-up answer looks whether its client took any of it. */
const STALL_LOOKS = 8;

type WithStream = ServerResponse & { [STREAM]?: AnswerStream };

/** What bounds each answer of a mount (the controller builds it once). */
export interface AnswerBounds {
  /** `writeStallTimeoutMs`. */
  readonly stallMs: number;
  /** `subscriptions.keepAliveMs`. */
  readonly keepAliveMs: number;
  /** What its events name the mount. */
  readonly mount: string;
  /** The mount's shutdown state: closing its connection once it is closing, and the shutdown deadline's count. */
  readonly shutdown: Pick<MountClosing, 'closeAfter' | 'track' | 'settled'>;
  /** The mount's waiting answers (`maxWaitingBytes`). */
  readonly waiting: Pick<WaitingAnswers, 'count' | 'forget'>;
}

// How specifically a media range names text/event-stream: exactly (2), by text/* (1), by */* (0), or not at all (-1).
const EVENT_STREAM_SPECIFICITY: Readonly<Record<string, number>> = { 'text/event-stream': 2, 'text/*': 1, '*/*': 0 };

/**
 * Whether `Accept` admits `text/event-stream` (absent: yes): the most specific range naming it decides, q=0 refuses,
 * an unparsable weight counts as 1 (RFC 9110 §12.4.2, §12.5.1).
 */
function acceptsEventStream(accept: string | string[] | undefined): boolean {
  if (accept === undefined) return true;
  let specificity = -1;
  let weight = 0;
  for (const range of (Array.isArray(accept) ? accept.join(',') : accept).split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const rank = Object.hasOwn(EVENT_STREAM_SPECIFICITY, type) ? EVENT_STREAM_SPECIFICITY[type]! : -1;
    if (rank < specificity || rank < 0) continue;
    const q = params.map((param) => /^q\s*=\s*([0-9.]+)$/.exec(param)?.[1]).find((value) => value !== undefined);
    const parsed = q === undefined ? 1 : Number(q);
    const rangeWeight = Number.isFinite(parsed) ? parsed : 1;
    weight = rank > specificity ? rangeWeight : Math.max(weight, rangeWeight);
    specificity = rank;
  }
  return specificity >= 0 && weight > 0;
}

/**
 * One SSE event carrying one JSON-RPC message; JSON.stringify never emits a raw line break. Named `message`, the
 * default an SSE reader assumes anyway, because some clients dispatch only events that say so.
 */
const event = (json: string): string => `event: message\ndata: ${json}\n\n`;

/** The bytes {@link event} adds to its JSON. */
const EVENT_FRAMING_BYTES = event('').length;

/** Events from their JSON, as one text. */
const events = (json: readonly string[]): string => event(json.join('\n\nevent: message\ndata: '));

/**
 * The answer stream: the one channel a request's answer leaves through, and the only place that picks JSON or SSE.
 * - JSON until a notification: the first one switches to `text/event-stream` (200), if `Accept` admits it;
 *   otherwise notifications are dropped.
 * - The final response (result or error) ends the stream; nothing follows it. A JSON-RPC request is written only
 *   for a legacy-era input request (`request`). A stream ends without one only when the client closes it or cancels
 *   it (`endForCancellation`), or when its writer `abandon`s it (a listen stream whose reader fell too far behind).
 * - A client close before the final response is a cancellation: `signal` aborts, one `mcp:request:cancelled` is
 *   emitted, and later writes are no-ops.
 * - No unbounded buffering: a notification meeting a full socket buffer is dropped, unless its writer queues it
 *   (`queue`) and bounds what waits itself (`buffered`, `abandon`); the final response is never dropped.
 * - Once SSE, a keep-alive comment (`: keep-alive`, no message) goes out every `keepAliveMs` until the stream ends,
 *   so a proxy's read timeout does not cut a stream that waits: a listen stream, a tool working silently after its
 *   first notification, a legacy-era input request waiting for its user. A JSON answer cannot carry one.
 * One per request, attached by the controller; the exception filter answers through it ({@link sendAnswer}).
 * Proven by: test/e2e/streaming.e2e-spec.ts; queued notifications, keep-alives and `abandon` by test/e2e/subscriptions.e2e-spec.ts;
 * keep-alives on a call's stream by test/e2e/behind-a-proxy.e2e-spec.ts
 */
export class AnswerStream implements WaitingAnswer {
  /** Made on the first read of `signal`; a stream cancelled before that hands out an aborted one. */
  private abort: AbortController | undefined;
  private cancelled = false;
  /** What `signal` aborts with: a client's cancellation names its reason; otherwise the platform's `AbortError`. */
  private cancelReason: DOMException | undefined;
  private sse = false;
  private done = false;
  private closed = false;
  /** Set once the server cut the answer off (`abandon`): what waited is no longer counted. */
  private cut = false;
  private closeWaiters: (() => void)[] | undefined;

  /** Whether the client's `Accept` admits SSE; read on the first notification or `canStream` (a JSON answer never needs it). */
  private sseAcceptedValue: boolean | undefined;

  /** Set while something waits to be written (see {@link AnswerStream.watchWrites}). */
  private stallWatch: NodeJS.Timeout | undefined;

  /** Set once the answer is SSE: writes a keep-alive comment every `keepAliveMs` while it is open. */
  private keepAliveTimer: NodeJS.Timeout | undefined;

  /** What its writer runs at each keep-alive ({@link AnswerStream.onKeepAlive}). */
  private keepAliveHook: (() => void) | undefined;

  /**
   * What was written while the socket was backed up, kept here as text and sent as one chunk at the next `drain`:
   * Node would keep each write as several queued chunks, holding about three times its bytes.
   */
  private held: string[] | undefined;
  private heldBytes = 0;

  /** The JSON of the events queued in this tick (`queue`), written as one at its end, after anything held; and their bytes. */
  private queued: string[] | undefined;
  private queuedBytes = 0;
  /** What waited under the tick's messages when the first was queued: nothing is written under them meanwhile. */
  private queuedBase = 0;

  private constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly method: string,
    private readonly bounds: AnswerBounds,
  ) {
    res.on('close', AnswerStream.onResponseClose);
  }

  /** The `close` listener of every attached response: one function for all, no closure per request. */
  private static onResponseClose(this: WithStream): void {
    this[STREAM]?.onClose();
  }

  /** Attaches the answer stream of one request (the controller does, before routing). */
  static attach(req: IncomingMessage, res: ServerResponse, method: string, bounds: AnswerBounds): AnswerStream {
    const stream = new AnswerStream(req, res, method, bounds);
    (res as WithStream)[STREAM] = stream;
    bounds.shutdown.track(stream);
    // Closed before it was attached (the client left while an async auth provider decided): a cancellation all the same.
    if (res.destroyed) stream.onClose();
    return stream;
  }

  /** The response closed: wakes `whenClosed`; before the final response, a cancellation. Once per response. */
  private onClose(): void {
    if (this.closed) return;
    clearInterval(this.stallWatch);
    clearInterval(this.keepAliveTimer);
    this.closed = true;
    this.bounds.shutdown.settled(this);
    this.bounds.waiting.forget(this);
    this.release();
    const waiters = this.closeWaiters;
    this.closeWaiters = undefined;
    if (waiters) for (const wake of waiters) wake();
    if (this.done) return;
    this.done = true;
    this.cancel();
    publish('mcp:request:cancelled', () => this.cancellation('close'));
  }

  /** The `mcp:request:cancelled` message of this request. */
  private cancellation(by: 'close' | 'notification', reason?: string): McpTelemetryEvents['mcp:request:cancelled'] {
    const id = telemetryId(requestRecord(this.req).id);
    return { mount: this.bounds.mount, method: bounded(this.method), ...(id !== undefined && { id }), by, ...(reason && { reason }) };
  }

  private cancel(reason?: DOMException): void {
    this.cancelled = true;
    this.cancelReason = reason;
    this.abort?.abort(reason);
  }

  /**
   * Ends an answer still under way at the shutdown deadline: the `shutting_down` error (200 on the legacy era), its
   * run stopped; one already written but still draining to a slow reader is cut, its HTTP/2 session closed after it.
   */
  endForShutdown(): void {
    if (this.closed) return;
    this.bounds.shutdown.closeAfter(this.res);
    if (!this.open) return void cutOff(this.res);
    const refusal = shuttingDown('the call was still running when the shutdown deadline (shutdownGraceMs) passed');
    const { status, body } = methodErrorAnswer(refusal, requestRecord(this.req));
    this.respond(body, status);
    this.stopRun();
  }

  /**
   * Ends an answer its client cancelled without closing it (a legacy `notifications/cancelled`): as a close,
   * `signal` aborts and one `mcp:request:cancelled` is emitted, but no final response follows: the stream ends
   * (an empty event stream when nothing was sent yet; the connection is closed when `Accept` excludes one). The
   * signal's `reason` is an `AbortError` whose message carries the client's `reason`, bounded.
   */
  endForCancellation(reason?: string): void {
    if (!this.open) return;
    this.done = true;
    const given = reason ? bounded(reason, 200) : undefined;
    const sentence = given ? `: ${given}${/[.!?…]$/.test(given) ? '' : '.'}` : '.';
    this.cancel(new DOMException(`The client cancelled the request${sentence}`, 'AbortError'));
    publish('mcp:request:cancelled', () => this.cancellation('notification', given));
    if (!this.sse) {
      if (this.res.headersSent || !this.canStream) return void cutOff(this.res);
      this.startEventStream();
    }
    endWith(this.res, this.release());
  }

  /** Aborts `signal` once a refusal or fault was answered (no `mcp:request:cancelled`: the client was answered); idempotent. */
  stopRun(): void {
    if (!this.cancelled) this.cancel();
  }

  /** Aborts when the stream ends before the final response: the client closes it or disconnects, or it is abandoned. */
  get signal(): AbortSignal {
    if (!this.abort) {
      this.abort = new AbortController();
      if (this.cancelled) this.abort.abort(this.cancelReason);
    }
    return this.abort.signal;
  }

  /** Whether its run was stopped: `signal` aborted (the client left, or the answer was sent while the run went on). */
  get stopped(): boolean {
    return this.cancelled;
  }

  /** Whether the answer has switched to SSE. */
  get streaming(): boolean {
    return this.sse;
  }

  /** Whether anything can still be written: no final response yet, not cancelled, socket alive. */
  get open(): boolean {
    return !this.done && !this.res.writableEnded && !this.res.destroyed;
  }

  /** Whether the client's `Accept` admits SSE, so the answer could switch to it (absent `Accept`: yes). */
  get canStream(): boolean {
    return (this.sseAcceptedValue ??= acceptsEventStream(this.req.headers.accept));
  }

  /**
   * Refuses a call that can only go on as SSE (`needs` says what it sends) when the client's `Accept` excludes
   * it: 406 + -32600 naming the `Accept` sent, thrown before anything is written.
   * @throws {McpMethodError} when `canStream` is false
   */
  requireStream(needs: string): void {
    if (!this.canStream)
      throw new McpMethodError(
        JSON_RPC_CODES.invalidRequest,
        `${needs} on an SSE stream, which the Accept header excludes: accept text/event-stream.`,
        { accept: bounded(String(this.req.headers.accept), 200) },
        406,
      );
  }

  /**
   * Whether a notification sent now would be dropped: the answer is SSE and its socket buffer is full (a write said
   * so and no `drain` came since: Node's HTTP/2 response has no `writableNeedDrain`).
   */
  get backedUp(): boolean {
    return this.sse && this.held !== undefined;
  }

  /** Bytes written but not yet handed to the operating system: what a reader that does not keep up makes this process hold. */
  get buffered(): number {
    return this.res.writableLength + this.heldBytes + this.queuedBytes;
  }

  /** Bytes of the answer its client has not taken: those queued below it ({@link waitingBytes}), held and queued this tick. */
  private get waiting(): number {
    return waitingBytes(this.res) + this.heldBytes + this.queuedBytes;
  }

  /** Resolves once the response is closed: the final response flushed, or the connection gone. */
  whenClosed(): Promise<void> {
    return this.closed ? Promise.resolve() : new Promise((resolve) => (this.closeWaiters ??= []).push(resolve));
  }

  /**
   * Sends one notification as an SSE event, switching to SSE on the first; returns false when it was not written.
   * At a full socket buffer it is dropped.
   */
  notify(notification: Readonly<Record<string, unknown>> & { method: string }): boolean {
    if (this.backedUp) return false;
    return this.writeEvent({ jsonrpc: '2.0', ...notification });
  }

  /**
   * Sends one JSON-RPC message already serialized (`json`, `bytes` long in UTF-8) as an SSE event, switching to SSE
   * on the first; never dropped for a full buffer, so its writer bounds what waits ({@link AnswerStream.buffered},
   * `abandon`). The messages queued in one tick go out as one write at its end (Node sends a tick's writes together
   * anyway), counted among what waits as they are queued. Returns false when it was not written.
   */
  queue(json: string, bytes: number): boolean {
    if (this.queued === undefined) {
      if (!this.eventsAccepted() || !this.eventStreamStarted()) return false;
      this.queued = [json];
      this.queuedBase = waitingBytes(this.res) + this.heldBytes;
      process.nextTick(AnswerStream.writeQueued, this);
    } else if (this.done) return false;
    else this.queued.push(json);
    this.queuedBytes += bytes + EVENT_FRAMING_BYTES;
    this.countWaiting();
    return true;
  }

  /** Counts what waits with the messages queued this tick, as each is queued. */
  private countWaiting(): void {
    if (!this.closed && !this.cut) this.bounds.waiting.count(this, this.queuedBase + this.queuedBytes, false);
  }

  /** Writes what was queued in the tick that ends. */
  private static writeQueued(this: void, stream: AnswerStream): void {
    if (stream.queued !== undefined && stream.open) stream.write('', 0);
  }

  /**
   * Writes the SSE comment line `: keep-alive`, which a client ignores, every `keepAliveMs` while the answer is open,
   * never at a full socket buffer; stops once it has ended.
   */
  private keepAlive(): void {
    if (!this.open) return void clearInterval(this.keepAliveTimer);
    if (!this.backedUp) this.write(': keep-alive\n\n');
    this.keepAliveHook?.();
  }

  /**
   * Runs `hook` at each keep-alive while the answer is open, whether or not the comment could be written (a listen
   * stream counts again what waits for its reader). One hook per stream: a second replaces the first.
   */
  onKeepAlive(hook: () => void): void {
    this.keepAliveHook = hook;
  }

  /**
   * Ends the stream now, without a final response (or without waiting for one still being flushed): the
   * connection is closed (over HTTP/2, the stream is reset) and what waits in its buffer freed. Before a final
   * response, `signal` aborts (no `mcp:request:cancelled`: the server ended it). For a writer that cannot let a
   * stream hold more; a no-op once closed.
   */
  abandon(): void {
    if (this.closed) return;
    const answered = this.done;
    this.done = true;
    this.cut = true;
    this.bounds.waiting.forget(this);
    if (!answered) this.cancel();
    this.release();
    cutOff(this.res);
  }

  /**
   * Sends a server-to-client request (a legacy-era input request) as an SSE event, switching to SSE on the
   * first; never dropped for a full buffer (the client must see it to answer). Returns whether it was written.
   */
  request(request: Readonly<Record<string, unknown>> & { id: string; method: string }): boolean {
    return this.writeEvent({ jsonrpc: '2.0', ...request });
  }

  private writeEvent(message: Readonly<Record<string, unknown>>): boolean {
    if (!this.eventsAccepted()) return false;
    let json: string;
    try {
      json = JSON.stringify(message);
    } catch {
      return false;
    }
    if (!this.eventStreamStarted()) return false;
    this.write(event(json));
    return true;
  }

  /** Whether an SSE event can go out now: the answer is open and its client's `Accept` admits SSE. */
  private eventsAccepted(): boolean {
    return this.open && this.canStream;
  }

  /** Whether the answer is SSE, switching it now unless its headers went as JSON's. */
  private eventStreamStarted(): boolean {
    if (this.sse) return true;
    if (this.res.headersSent) return false;
    this.startEventStream();
    return true;
  }

  /** Switches the answer to SSE: its headers go out now. */
  private startEventStream(): void {
    this.sse = true;
    this.bounds.shutdown.closeAfter(this.res); // before the headers go
    this.res.writeHead(200, SSE_HEADERS);
    this.res.socket?.setNoDelay(true);
    this.keepAliveTimer = setInterval(() => this.keepAlive(), this.bounds.keepAliveMs).unref();
  }

  /**
   * Writes `text` to the response, after what was queued this tick, or holds it while the socket is backed up
   * (flushed whole at the next `drain`). Text beyond ASCII goes as bytes: Node counts a string it holds in
   * characters, which would let what waits for a reader ({@link AnswerStream.buffered}) pass its bound threefold.
   */
  private write(text: string, bytes = Buffer.byteLength(text)): void {
    if (this.queued !== undefined) {
      text = events(this.queued) + text;
      bytes += this.queuedBytes;
      this.queued = undefined;
      this.queuedBytes = 0;
    }
    if (this.held) {
      this.held.push(text);
      this.heldBytes += bytes;
    } else if (!this.res.write(bytes === text.length ? text : Buffer.from(text))) {
      this.held = [];
      this.res.once('drain', () => this.flushHeld());
    }
    this.watchWrites();
  }

  /** The socket drained: what was held goes out as one write (held again if the socket backs up once more). */
  private flushHeld(): void {
    const text = this.release();
    if (text && this.open) this.write(text);
  }

  /** Stops holding; returns what was held, then what was queued this tick, as one text. */
  private release(): string {
    const held = this.held;
    const queued = this.queued;
    this.held = undefined;
    this.heldBytes = 0;
    this.queued = undefined;
    this.queuedBytes = 0;
    return (held ? held.join('') : '') + (queued ? events(queued) : '');
  }

  /**
   * Bounds what a client that stops reading costs: while bytes wait to be written, it looks {@link STALL_LOOKS} times
   * per `stallMs` whether the client took some (however much more was written meanwhile; over HTTP/2, of this
   * stream: write-progress.ts); one that took none for `stallMs` since the last look that saw it take some (or since
   * the watch began) is cut off (`mcp:answer:stalled`) and what waited is freed. So the cut comes `stallMs` to
   * `stallMs` plus two looks after the last byte taken. What waits (held and queued this tick too) is counted among
   * the mount's waiting answers at each write, each message queued and each look ({@link WaitingAnswers}). (An
   * answer always has its connection: a pipelined request is taken up only in its turn, turn.ts.)
   */
  private watchWrites(): void {
    if (this.closed || this.cut) return;
    const waiting = this.waiting;
    this.bounds.waiting.count(this, waiting, false);
    if (this.stallWatch || waiting === 0) return;
    const progress = watchProgress(this.res);
    let lastTook = performance.now();
    this.stallWatch = setInterval(
      () => {
        const at = performance.now();
        const now = this.waiting;
        const took = progress.took();
        if (took) lastTook = at;
        else if (now > 0 && at - lastTook >= this.bounds.stallMs) this.cutStalled('writeStallTimeoutMs', now);
        if (!this.cut && !this.closed) this.bounds.waiting.count(this, now, took);
        if (now === 0 || this.closed) {
          clearInterval(this.stallWatch);
          this.stallWatch = undefined;
          progress.stop();
        }
      },
      Math.max(1, Math.ceil(this.bounds.stallMs / STALL_LOOKS)),
    ).unref();
  }

  /** Cuts the answer off to make room for the mount's other waiting answers ({@link WaitingAnswers}). */
  cutForRoom(): void {
    this.cutStalled('maxWaitingBytes', this.waiting);
  }

  /** Cuts off an answer its client did not take, freeing what waited (`mcp:answer:stalled`, naming the bound). */
  private cutStalled(bound: 'writeStallTimeoutMs' | 'maxWaitingBytes', waiting: number): void {
    publish('mcp:answer:stalled', () => ({ mount: this.bounds.mount, method: bounded(this.method), waitingBytes: waiting, bound }));
    this.abandon();
  }

  /** Sets a header of the answer, unless its headers went already (a streamed answer's did with its first event). */
  setHeader(name: string, value: string): void {
    if (!this.res.headersSent) this.res.setHeader(name, value);
  }

  /**
   * Sends the final response and ends the answer: the last SSE event (`status`/`headers` moot), else a JSON body.
   * A no-op once answered or cancelled; an unserializable body throws before anything is written.
   */
  respond(body: unknown, status = 200, headers: Readonly<Record<string, string>> = {}): void {
    if (!this.open) {
      this.done = true;
      return;
    }
    this.respondJson(JSON.stringify(body), status, headers); // a value that cannot be serialized throws here, before the answer ends
  }

  /** {@link AnswerStream.respond} for a body already serialized. */
  respondJson(json: string, status = 200, headers: Readonly<Record<string, string>> = {}): void {
    if (!this.open) {
      this.done = true;
      return;
    }
    this.done = true;
    this.bounds.shutdown.closeAfter(this.res); // before the headers go; an event stream's went, but its HTTP/2 session closes
    if (this.sse) endWith(this.res, this.release() + event(json));
    else sendJsonText(this.res, status, json, headers);
    this.watchWrites();
  }
}

/**
 * Whether the run of an attached answer stream was stopped (its signal aborted): its client left, or its answer was
 * sent in its stead (the shutdown deadline, a refusal or fault answered while it ran). What it throws after is the run
 * stopping as asked, not a fault.
 */
export function runStopped(res: ServerResponse): boolean {
  return (res as WithStream)[STREAM]?.stopped === true;
}

/** Whether an answer stream is attached to `res` (the controller attached one; the write watch bounds its answer). */
export function hasAnswerStream(res: ServerResponse): boolean {
  return (res as WithStream)[STREAM] !== undefined;
}

/** Sends a refusal or fault as the final answer (the exception filter does) through the response's answer stream when attached, else as a JSON body (before routing). */
export function sendAnswer(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const stream = (res as WithStream)[STREAM];
  if (!stream) return sendJson(res, status, body, headers);
  stream.respond(body, status, headers);
  // A refusal or fault may be answered while the handler still runs (a host interceptor timed it out): its signal stops it.
  stream.stopRun();
}

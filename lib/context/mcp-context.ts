import type { IncomingHttpHeaders } from 'node:http';
import { META_KEYS } from '../mcp.constants.js';
import type { McpRequestRecord } from '../contracts/request-record.js';
import type { AnswerStream } from '../response/answer-stream.js';
import type { McpAuthInfo } from '../contracts/mcp-auth.interface.js';
import type { McpElicitParams, McpElicitResult, McpInputOptions, McpRoot, McpSampleParams, McpSampleResult } from '../mrtr/input.types.js';
import type { MrtrRound } from '../mrtr/mrtr-round.js';
import { ProgressReporter, type McpProgressToken } from './progress-reporter.js';
import { McpRequestLogger, type McpLogLevel } from './request-logger.js';
import { quiet, rejected } from '../util/quiet-promise.js';

/**
 * What a context is built from: the request's facts, which tool (and action) runs, and what it is wired to. An
 * absent `round` makes input requests unavailable; an absent `answer` drops progress and log messages.
 * @internal
 */
export interface McpContextInit {
  /** What the POST chain proved about the request. */
  readonly record: McpRequestRecord;
  /** The request headers as Node parsed them. */
  readonly headers: IncomingHttpHeaders;
  readonly tool: string;
  readonly action?: string;
  /** Fires when the client goes away before the answer is complete. */
  readonly signal: AbortSignal;
  readonly round?: MrtrRound;
  readonly answer?: AnswerStream;
  /** Shared by the contexts derived from one request (`withAction`), so progress keeps increasing across them. */
  readonly progress?: ProgressReporter;
}

const noRound = (what: string) =>
  rejected(new Error(`${what} is not available here: this context is not part of a tools/call, resources/read or prompts/get request`));

/**
 * The context handed to every tool run: this request's protocol fields, what the auth provider returned, the
 * request headers, which tool (and action) runs, an `AbortSignal` that fires when the client goes away, and the
 * calls that reach the client during the request: progress, log messages, and input requests.
 *
 * **Re-execution.** `elicit`, `sample` and `listRoots` ask the client for input in a multi round-trip request
 * (MRTR): an input request the client has not answered yet ends this execution with an input-required result
 * (every input request made before the tool awaited, plus a sealed `requestState`); when the client retries with
 * the answers, the tool runs again from the start and the same calls now resolve with them. So everything a tool
 * does before its last input request runs once per round: ask first, act after, keep side effects behind the
 * answers. Answers of earlier rounds come back on later rounds; `state` carries the tool's own small JSON value
 * from one round to the next. A tool never catches the input-required signal (or rethrows it: it passes
 * containment).
 *
 * Built per call from what the POST chain proved; never shared between requests, and valid only during its call.
 * @publicApi
 */
export class McpContext {
  /** The request's protocol version (`_meta`). */
  readonly protocolVersion: string;
  /** The client capabilities declared on this request (never inferred from earlier ones). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** The client's self-reported identity, for display and logs only. */
  readonly clientInfo: Readonly<Record<string, unknown>> | undefined;
  /** What the auth provider returned for this request (undefined with no provider). */
  readonly auth: McpAuthInfo | undefined;
  /** The request's progress token (`_meta.progressToken`), when the client asked for progress. */
  readonly progressToken: McpProgressToken | undefined;

  /** The request headers as Node parsed them. */
  readonly headers: IncomingHttpHeaders;
  /** The tool being run. */
  readonly tool: string;
  /** The action being run (action tools only). */
  readonly action: string | undefined;
  /** Fires when the client closes the stream or disconnects before the answer is complete. */
  readonly signal: AbortSignal;

  private readonly reporter: ProgressReporter;
  private logger: McpRequestLogger | undefined;

  /** @internal built by the library for each call */
  constructor(private readonly init: McpContextInit) {
    const meta = init.record.meta ?? {};
    this.headers = init.headers;
    this.tool = init.tool;
    this.action = init.action;
    this.signal = init.signal;
    this.protocolVersion = meta[META_KEYS.protocolVersion] as string;
    this.clientCapabilities = (meta[META_KEYS.clientCapabilities] as Record<string, unknown>) ?? {};
    this.clientInfo = meta[META_KEYS.clientInfo] as Record<string, unknown> | undefined;
    this.auth = init.record.auth;
    this.progressToken = meta[META_KEYS.progressToken] as McpProgressToken | undefined;
    this.reporter = init.progress ?? new ProgressReporter(this.progressToken, init.answer);
  }

  /** Sends log messages to the client, at or above the level the request asked for (`_meta` logLevel). Built on first use. */
  get log(): McpRequestLogger {
    const name = this.action === undefined ? this.tool : `${this.tool}.${this.action}`;
    const level = this.init.record.meta?.[META_KEYS.logLevel] as McpLogLevel | undefined;
    return (this.logger ??= new McpRequestLogger(level, this.init.answer, name));
  }

  /** The same request's context for one action of an action tool (progress and input requests are shared). */
  withAction(action: string): McpContext {
    return new McpContext({ ...this.init, action, progress: this.reporter });
  }

  /**
   * Reports progress to the client: a `notifications/progress` when the request carried a progress token, on
   * its SSE stream. Values must increase; one that does not is dropped. Returns whether a notification was sent.
   */
  progress(progress: number, total?: number, message?: string): boolean {
    return this.reporter.report(progress, total, message);
  }

  /**
   * Asks the user through the client (elicitation). Resolves with the user's answer (`accept` with `content`
   * checked against `requestedSchema`, `decline` or `cancel`: handle all three). Unanswered, it ends this
   * execution with an input-required result. Rejects with -32021 when the request's client capabilities lack
   * `elicitation` (or `elicitation.url` for URL mode); a tool may catch that and do without.
   */
  elicit(params: McpElicitParams, options: McpInputOptions = {}): Promise<McpElicitResult> {
    return (this.init.round?.ask('elicitation', params, options.key) ?? noRound('elicitation')) as Promise<McpElicitResult>;
  }

  /**
   * Asks the client's model for a completion (sampling, deprecated in 2026-07-28). Resolves with the model's
   * message; unanswered, it ends this execution with an input-required result. Rejects with -32021 when the
   * request's client capabilities lack `sampling` (or `sampling.tools` for tool use).
   */
  sample(params: McpSampleParams, options: McpInputOptions = {}): Promise<McpSampleResult> {
    return (this.init.round?.ask('sampling', params, options.key) ?? noRound('sampling')) as Promise<McpSampleResult>;
  }

  /**
   * Asks the client for its roots (deprecated in 2026-07-28). Resolves with the roots; unanswered, it ends this
   * execution with an input-required result. Rejects with -32021 when the client capabilities lack `roots`.
   */
  listRoots(options: McpInputOptions = {}): Promise<McpRoot[]> {
    const asked = (this.init.round?.ask('roots', {}, options.key) ?? noRound('roots')) as Promise<{ roots: McpRoot[] }>;
    return quiet(asked.then((result) => result.roots)); // like every input request: never an unhandled rejection while the tool is busy elsewhere
  }

  /**
   * The tool's own state, carried from one round of a multi round-trip request to the next inside the sealed
   * `requestState`: undefined in the first round, then whatever the previous round left here. A JSON value of at
   * most 64 KiB; signed, not encrypted (the client can read it), so never a secret. Whatever it holds when the
   * round ends is what the next round reads.
   */
  get state(): unknown {
    return this.init.round?.toolState;
  }

  set state(value: unknown) {
    if (!this.init.round) throw new Error('state is not available here: this context is not part of a multi round-trip request');
    this.init.round.toolState = value;
  }
}

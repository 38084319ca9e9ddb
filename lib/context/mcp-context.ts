import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

import type { McpAuthInfo } from '../contracts/mcp-auth.interface.js';
import type { McpRequestRecord } from '../contracts/request-record.js';
import { META_KEYS, type McpLogLevel } from '../mcp.constants.js';
import type { InputChannel } from '../mrtr/input-channel.js';
import type { McpElicitAnswer, McpElicitParams, McpInputOptions, McpRoot, McpSampleParams, McpSampleResult } from '../mrtr/input.types.js';
import type { AnswerStream } from '../response/answer-stream.js';
import type { EveryField } from '../util/every-field.js';
import { quiet, rejected } from '../util/quiet-promise.js';
import { ProgressReporter, type McpProgressToken } from './progress-reporter.js';
import { McpRequestLogger } from './request-logger.js';

/** What a context is built from; without `inputs` no input requests, without `answer` no progress or logs. @internal */
export interface McpContextInit {
  /** What the POST chain proved about the request. */
  readonly record: McpRequestRecord;
  /** The request headers as Node parsed them. */
  readonly headers: IncomingHttpHeaders;
  /** The host framework's request object (Express: the Node request; Fastify: its request wrapper). */
  readonly request: object;
  /** The tool being run (a tools/call). */
  readonly tool?: string;
  readonly action?: string;
  /** The resource being read (a resources/read): its URI. */
  readonly resource?: string;
  /** The prompt being got (a prompts/get). */
  readonly prompt?: string;
  /** Fires when the call is cancelled; default: the answer stream's signal, read on first use. */
  readonly signal?: AbortSignal;
  readonly inputs?: InputChannel;
  readonly answer?: AnswerStream;
  /** Shared by the contexts derived from one request (`withAction`), so progress keeps increasing across them. */
  readonly progress?: ProgressReporter;
  /** The call's way to become a task, when it may (a task-supporting tool, the tasks extension declared). */
  readonly task?: McpTaskHandle;
}

/** How a context makes its call a task. @internal */
export interface McpTaskHandle {
  readonly taskId: string | undefined;
  start(): Promise<void>;
}

/**
 * The host framework's request as `McpContext.request` types it by default: a Node request with whatever the host's
 * guards added, which its `any` index signature lets a handler read without a cast (`ctx.request.user`).
 * @publicApi
 */
export type McpHostRequest = IncomingMessage & { readonly [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The context as the handler interfaces declare it, for any request type: a handler that types its own
 * (`McpContext<Request>` on Express, `McpContext<FastifyRequest>` on Fastify) still implements them. @publicApi
 */
export type McpHandlerContext = McpContext<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The signal of a context with neither a signal nor an answer stream: it never fires. */
const NEVER_ABORTED = new AbortController().signal;

const noRound = (what: string) => rejected(new Error(`${what} is not available here: this context is not part of a tools/call, resources/read or prompts/get request`));

/**
 * The context handed to every tool run, resource read and prompt get: the request's protocol fields, auth, headers,
 * what is run (tool and action, resource or prompt), a cancel `signal`, and progress, logs and input requests to
 * the client. Built per call; valid only during it.
 * Re-execution: an unanswered `elicit`/`sample`/`listRoots` ends this execution input-required and the handler
 * reruns from the start on retry, so ask first and keep side effects behind the answers. See docs/mrtr.md.
 * @publicApi
 */
export class McpContext<TRequest extends object = McpHostRequest> {
  /** The request's protocol version (`_meta`). */
  readonly protocolVersion: string;
  /**
   * The client capabilities this request declares. A legacy request declares none itself: it carries the input
   * capabilities (elicitation, sampling, roots) its client declared in `initialize`, as its echoed session id holds
   * them, and nothing else; without one, none, which says nothing (catch -32021 instead).
   */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** The client's self-reported identity, for display and logs only. */
  readonly clientInfo: Readonly<Record<string, unknown>> | undefined;
  /** What the auth provider returned for this request (undefined with no provider). */
  readonly auth: McpAuthInfo | undefined;
  /** The request's progress token (`_meta.progressToken`), when the client asked for progress. */
  readonly progressToken: McpProgressToken | undefined;

  /** The request headers as Node parsed them. */
  readonly headers: IncomingHttpHeaders;
  /**
   * The host framework's request, as the host's own guards and middleware saw it: read what they put there
   * (`ctx.request.user`). Type it for your adapter: `McpContext<Request>` (Express) or `McpContext<FastifyRequest>`.
   */
  readonly request: TRequest;
  /** The tool being run (a tools/call). */
  readonly tool: string | undefined;
  /** The action being run (action tools only). */
  readonly action: string | undefined;
  /** The resource being read (a resources/read): the URI asked for. */
  readonly resource: string | undefined;
  /** The prompt being got (a prompts/get). */
  readonly prompt: string | undefined;

  private reporterValue: ProgressReporter | undefined;
  private logger: McpRequestLogger | undefined;

  /** @internal built by the library for each call */
  constructor(private readonly init: McpContextInit) {
    const meta = init.record.meta ?? {};
    this.headers = init.headers;
    this.request = init.request as TRequest;
    this.tool = init.tool;
    this.action = init.action;
    this.resource = init.resource;
    this.prompt = init.prompt;
    this.protocolVersion = meta[META_KEYS.protocolVersion] as string;
    this.clientCapabilities = (meta[META_KEYS.clientCapabilities] as Record<string, unknown>) ?? {};
    this.clientInfo = meta[META_KEYS.clientInfo] as Record<string, unknown> | undefined;
    this.auth = init.record.auth;
    this.progressToken = meta[META_KEYS.progressToken] as McpProgressToken | undefined;
  }

  /** Fires when the client closes the stream or disconnects before the answer is complete (or a task is cancelled). */
  get signal(): AbortSignal {
    return this.init.signal ?? this.init.answer?.signal ?? NEVER_ABORTED;
  }

  /** Shared with the contexts derived from this one; built on first use. */
  private get reporter(): ProgressReporter {
    return (this.reporterValue ??= this.init.progress ?? new ProgressReporter(this.progressToken, this.init.answer));
  }

  /** Sends log messages to the client, at or above the level the request asked for (`_meta` logLevel). Built on first use. */
  get log(): McpRequestLogger {
    const name = this.action === undefined ? (this.tool ?? this.prompt ?? this.resource) : `${this.tool}.${this.action}`;
    const level = this.init.record.meta?.[META_KEYS.logLevel] as McpLogLevel | undefined;
    // A task carries no logs: the logger sends nothing once the call is one, even if it was built before.
    return (this.logger ??= new McpRequestLogger(level, this.init.answer, name, () => this.taskId !== undefined));
  }

  /** The same request's context for one action of an action tool (progress and input requests are shared). */
  withAction(action: string): McpContext<TRequest> {
    const init = this.init;
    // Spelled out in the order `contextInit` spells them: one shape for every init (test/methods/context-init.spec.ts).
    return new McpContext<TRequest>({
      record: init.record,
      headers: init.headers,
      request: init.request,
      answer: init.answer,
      tool: init.tool,
      action,
      resource: init.resource,
      prompt: init.prompt,
      signal: init.signal,
      inputs: init.inputs,
      task: init.task,
      progress: this.reporter,
    } satisfies EveryField<McpContextInit>);
  }

  /** Reports progress (only with the request's progress token, never in a task; values must increase); returns whether it was sent. */
  progress(progress: number, total?: number, message?: string): boolean {
    return this.taskId === undefined && this.reporter.report(progress, total, message);
  }

  /** Asks the user: `accept` (content checked against `requestedSchema`), `decline` or `cancel`; -32021 if undeclared. */
  elicit<const P extends McpElicitParams>(params: P, options: McpInputOptions = {}): Promise<McpElicitAnswer<P>> {
    return (this.init.inputs?.ask('elicitation', params, options.key) ?? noRound('elicitation')) as Promise<McpElicitAnswer<P>>;
  }

  /** Asks the client's model (sampling, deprecated in 2026-07-28); -32021 without `sampling` (or `sampling.tools`). */
  sample(params: McpSampleParams, options: McpInputOptions = {}): Promise<McpSampleResult> {
    return (this.init.inputs?.ask('sampling', params, options.key) ?? noRound('sampling')) as Promise<McpSampleResult>;
  }

  /** Asks the client for its roots (deprecated in 2026-07-28); like `sample`, -32021 without `roots`. */
  listRoots(options: McpInputOptions = {}): Promise<McpRoot[]> {
    const asked = (this.init.inputs?.ask('roots', {}, options.key) ?? noRound('roots')) as Promise<{ roots: McpRoot[] }>;
    return quiet(asked.then((result) => result.roots)); // like every input request: never an unhandled rejection while the tool is busy elsewhere
  }

  /**
   * Makes this call a task now, when it may become one (a task-supporting tool or action, the tasks extension
   * declared): the request is answered with the task, and the rest of the handler runs as it, input requests
   * parking it until `tasks/update`. Resolves once the task is stored; elsewhere it resolves at once and the call
   * runs on. For `taskStart: 'handler'`, after the input the call needs up front. See docs/tasks.md.
   */
  startTask(): Promise<void> {
    return this.init.task?.start() ?? Promise.resolve();
  }

  /** The task this call runs as, once it is one (see {@link McpContext.startTask}). */
  get taskId(): string | undefined {
    return this.init.task?.taskId;
  }

  /** The tool's own JSON value (≤ 64 KiB) carried to the next round in `requestState`; signed, not encrypted. */
  get state(): unknown {
    return this.init.inputs?.toolState;
  }

  set state(value: unknown) {
    if (!this.init.inputs) throw new Error('state is not available here: this context is not part of a call that may ask the client for input');
    this.init.inputs.toolState = value;
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';

import type { McpRequestRecord } from '../contracts/request-record.js';
import { RequestStateCodec } from '../contracts/request-state-codec.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { LEGACY_DEFAULT_VERSION, META_KEYS } from '../mcp.constants.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { ProtocolSchema } from '../protocol/protocol-schema.js';
import { requestFootprint } from '../protocol/request-footprint.js';
import type { AnswerStream } from '../response/answer-stream.js';
import { mountName, publish } from '../telemetry/channels.js';
import { ElicitationSchemaCache } from './elicitation-schema-cache.js';
import type { InputChannel } from './input-channel.js';
import { INPUT_KINDS } from './input-kinds.js';
import type { InputChecks } from './input-request.js';
import { isInputRequired, misuseAfter } from './input-required.js';
import { MrtrRound } from './mrtr-round.js';
import { PendingInputRequests } from './pending-input-requests.js';
import { requestBinding } from './request-binding.js';
import { REQUEST_STATE_MAX_CHARS, RequestStateSeal, RequestStateTooLarge, type RequestStateProblem } from './request-state-seal.js';
import { StreamedInputs } from './streamed-inputs.js';

/** The methods whose answer may be an input-required result: only their handlers open rounds. */
const MRTR_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

/** What each refused `requestState` is told, in one sentence; `data.problem` names the row. */
const REFUSED_STATE: Record<RequestStateProblem, string> = {
  malformed: 'Invalid params: requestState is not a state this server issued; retry the call without requestState.',
  tampered: 'Invalid params: requestState failed verification (it was altered, or sealed under another secret); retry the call without requestState.',
  expired: 'Invalid params: requestState has expired; retry the call without requestState and inputResponses.',
  other_call: 'Invalid params: requestState belongs to another call (another mount, method, tool, resource, prompt or arguments).',
  other_principal: 'Invalid params: requestState belongs to another caller.',
};

/** The refusal of a `requestState` that cannot be trusted: 400 + -32602, `data: {reason, problem}`. */
function refusedRequestState(problem: RequestStateProblem): McpMethodError {
  return new McpMethodError(JSON_RPC_CODES.invalidParams, REFUSED_STATE[problem], { reason: 'invalid_request_state', problem }, 400);
}

/** The warning, given once when the first state is sealed, that the default codec runs without configured secrets. */
export const RANDOM_SECRET_WARNING =
  'requestState.secrets is not set: multi round-trip requests are sealed with a random per-process secret, so a retry that ' +
  'reaches another instance (or this one after a restart) is refused. Set requestState.secrets in multi-instance deployments.';

/** One request of an MRTR method, as a handler opens its round. */
export interface RoundRequest {
  /** One of {@link MRTR_METHODS}. */
  readonly method: string;
  /** The request's params: `requestState` and `inputResponses` are read from here. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The request record: the client capabilities and the auth subject. */
  readonly record: McpRequestRecord;
  /** What makes it this call (for tools/call: name and arguments); a state sealed for anything else is refused. */
  readonly identifying: unknown;
  /** The call's answer stream: a legacy-era input request goes out on it. */
  readonly answer: AnswerStream;
}

const logger = new Logger('Mcp');

/**
 * Input requests for the methods that may ask the client for input: opens one input channel per call and settles it
 * into the answer. On the modern era the channel is an MRTR round: `admit` verifies an echoed `requestState` before
 * the handler runs (`open` admits at once; tools/call admits after its dispatch gates); `settle` runs the handler
 * and answers, in this order: the round's refusal (an unreadable answer), a method error the handler threw, an
 * input-required result when an input request is pending, otherwise the handler's result. On the legacy era it is a
 * streamed exchange (`StreamedInputs`), and `settle` answers what the handler returns or throws. See docs/mrtr.md
 * and docs/eras.md.
 */
@Injectable()
export class MrtrRounds {
  /** Whether the random-secret warning is still to be given (once, when the first state is sealed). */
  private warnRandomSecret: boolean;
  private readonly seal: RequestStateSeal;
  /** What this mount's events name it. */
  private readonly mount: string;
  private readonly schemas = new ElicitationSchemaCache();

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    @Inject(RequestStateCodec) codec: RequestStateCodec,
    private readonly protocol: ProtocolSchema,
    private readonly pending: PendingInputRequests,
  ) {
    this.seal = new RequestStateSeal(codec, options.requestState.ttlMs);
    this.mount = mountName(options.path);
    this.warnRandomSecret = options.requestState.codec === undefined && options.requestState.secrets === undefined;
    for (const kind of Object.values(INPUT_KINDS)) {
      protocol.validator(kind.requestDefinition);
      protocol.validator(kind.answerDefinition);
    }
  }

  /** What checking an input request and its answer needs (a task's input channel checks with the same). */
  get checks(): InputChecks {
    return { protocol: this.protocol, schemas: this.schemas };
  }

  /**
   * Opens the input channel of one call and admits its echoed `requestState` at once (`channel`, then `admit`).
   * @throws {McpMethodError} -32602 when an echoed `requestState` is refused
   */
  async open(request: RoundRequest): Promise<InputChannel> {
    const channel = this.channel(request);
    await this.admit(channel);
    return channel;
  }

  /**
   * The input channel of one call: an MRTR round, or on the legacy era a streamed exchange. A round's echoed
   * `requestState` is not trusted until `admit` opens it, which must happen before the handler runs.
   */
  channel(request: RoundRequest): InputChannel {
    const { method, params, record } = request;
    if (!MRTR_METHODS.has(method)) throw new Error(`${method} cannot ask the client for input (only ${[...MRTR_METHODS].join(', ')} can)`);
    if (record.era === 'legacy')
      return new StreamedInputs({
        answer: request.answer,
        pending: this.pending,
        subject: record.auth?.subject,
        heldBytes: () => requestFootprint(record),
        revision: String(record.meta?.[META_KEYS.protocolVersion] ?? LEGACY_DEFAULT_VERSION),
        capabilities: record.sessionIdContents?.capabilities,
        protocol: this.protocol,
        schemas: this.schemas,
      });
    return new MrtrRound({
      method,
      // The binding digests the call's params: computed only for a round that opens or seals a state.
      binding: () => requestBinding(this.options.path, method, request.identifying, record.auth?.subject),
      capabilities: (record.meta?.[META_KEYS.clientCapabilities] ?? {}) as Record<string, unknown>,
      responses: params.inputResponses as Record<string, unknown> | undefined,
      echoed: typeof params.requestState === 'string' ? params.requestState : undefined,
      schemas: this.schemas,
      protocol: this.protocol,
    });
  }

  /**
   * Opens a round's echoed `requestState`, and the round goes on from it; nothing for a round with none or a
   * streamed exchange.
   * @throws {McpMethodError} -32602 when the state is refused
   */
  async admit(channel: InputChannel): Promise<void> {
    if (!(channel instanceof MrtrRound) || channel.echoed === undefined) return;
    const opened = await this.seal.open(channel.echoed, () => channel.binding);
    if (!opened.ok) throw refusedRequestState(opened.problem);
    channel.resume(opened.content);
  }

  /** Runs the handler of one round and decides the answer (see the class doc for the order). */
  async settle(channel: InputChannel, run: () => Promise<McpResult>, tool?: string): Promise<McpResult> {
    if (!(channel instanceof MrtrRound)) {
      try {
        return await run();
      } finally {
        channel.close();
      }
    }
    const round = channel;
    let result: McpResult | undefined;
    let thrown: unknown;
    let threw = false;
    try {
      result = await run();
    } catch (fault) {
      threw = true;
      thrown = fault;
    }
    round.close();
    if (round.refusal) throw round.refusal;
    if (threw && !isInputRequired(thrown)) throw thrown;
    if (round.inputRequired) {
      publish('mcp:mrtr:input_required', () => ({ mount: this.mount, tool, method: round.method, kinds: round.pendingKinds }));
      return { resultType: 'input_required', inputRequests: round.inputRequests(), requestState: await this.sealRound(round) };
    }
    if (threw) {
      const misused = misuseAfter(thrown);
      throw misused ? misused.thrown : new Error('an input-required signal reached a round that does not end input-required (a context used outside its own call)');
    }
    return result!;
  }

  private async sealRound(round: MrtrRound): Promise<string> {
    if (this.warnRandomSecret) {
      this.warnRandomSecret = false;
      logger.warn(RANDOM_SECRET_WARNING);
    }
    try {
      return await this.seal.seal({ binding: round.binding, round: round.number, answers: round.carriedAnswers(), toolState: round.toolState });
    } catch (error) {
      if (!(error instanceof RequestStateTooLarge)) throw error;
      throw new McpMethodError(
        JSON_RPC_CODES.invalidParams,
        `Invalid params: the input responses are too large to carry to the next round (the requestState would exceed ${REQUEST_STATE_MAX_CHARS} characters); send smaller answers.`,
        { reason: 'request_state_too_large' },
        400,
      );
    }
  }
}

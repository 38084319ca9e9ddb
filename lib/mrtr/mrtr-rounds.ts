import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { META_KEYS } from '../mcp.constants.js';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { McpResolvedOptions } from '../mcp-module-options.interface.js';
import type { McpResult, MethodCall } from '../methods/method-handler.interface.js';
import { MRTR_METHODS } from '../methods/mcp-methods.js';
import { publish } from '../telemetry/channels.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import { ProtocolSchema } from '../protocol/protocol-schema.js';
import { ElicitationSchemaCache } from './elicitation-schema-cache.js';
import { INPUT_KINDS } from './input-kinds.js';
import { isInputRequired } from './input-required.js';
import { MrtrRound } from './mrtr-round.js';
import { requestBinding, type RequestBinding } from './request-binding.js';
import { REQUEST_STATE_MAX_CHARS, RequestStateSeal, RequestStateTooLarge, type RequestStateContent, type RequestStateProblem } from './request-state-seal.js';

/** What each refused `requestState` is told, in one sentence; `data.problem` names the row. */
const REFUSED_STATE: Record<RequestStateProblem, string> = {
  malformed: 'Invalid params: requestState is not a state this server issued; retry the call without requestState.',
  tampered: 'Invalid params: requestState failed verification (it was altered, or sealed under another secret); retry the call without requestState.',
  expired: 'Invalid params: requestState has expired; retry the call without requestState and inputResponses.',
  other_call: 'Invalid params: requestState belongs to another call (another method, tool, resource, prompt or arguments).',
  other_principal: 'Invalid params: requestState belongs to another caller.',
};

/**
 * The refusal of a `requestState` that cannot be trusted: -32602 with `data: {reason: "invalid_request_state",
 * problem}`, HTTP 400. The spec assigns no code (DIGEST j.2); -32602 and 400 match the other refusals of what a
 * retry carries (a structurally broken `inputResponses` is 400 + -32602 from method routing), and the refusal
 * comes before any notification, so the status can still say it.
 */
export function refusedRequestState(problem: RequestStateProblem): McpMethodError {
  return new McpMethodError(JSON_RPC_CODES.invalidParams, REFUSED_STATE[problem], { reason: 'invalid_request_state', problem }, 400);
}

/** The startup warning when no `requestState` secret is configured. */
export const RANDOM_SECRET_WARNING =
  'requestState.secrets is not set: multi round-trip requests are sealed with a random per-process secret, so a retry that ' +
  'reaches another instance (or this one after a restart) is refused. Set requestState.secrets in multi-instance deployments.';

const logger = new Logger('Mcp');

/**
 * Multi round-trip requests (MRTR) for the methods that may ask the client for input (`MRTR_METHODS`): opens one
 * round per request and settles it into the method's answer.
 *
 * - `open` verifies the echoed `requestState` (`RequestStateSeal`: tampered, foreign, expired or misbound is
 *   refused before the handler runs) and starts the round with the answers it carries.
 * - `settle` runs the handler and decides the answer, in this order: the round's refusal (an unreadable
 *   answer); a method error out of the handler (for example -32021); an input-required result when any input
 *   request is pending (`{resultType: "input_required", inputRequests, requestState}`, no caching hints, one
 *   `mcp:mrtr:input_required` event); otherwise the handler's result.
 * A module without configured secrets warns once at startup (see {@link RANDOM_SECRET_WARNING}).
 * Proven by: test/e2e/mrtr.e2e-spec.ts, test/e2e/mrtr-request-state.e2e-spec.ts
 */
@Injectable()
export class MrtrRounds implements OnApplicationBootstrap {
  private readonly seal: RequestStateSeal;
  private readonly schemas = new ElicitationSchemaCache();

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly tools: ToolRegistry,
  ) {
    this.seal = new RequestStateSeal(options.requestState.secrets, options.requestState.ttlMs);
    const schema = ProtocolSchema.shared(); // compiled here, at module init: requests only run validators
    for (const kind of Object.values(INPUT_KINDS)) {
      schema.validator(kind.requestDefinition);
      schema.validator(kind.answerDefinition);
    }
  }

  onApplicationBootstrap(): void {
    if (this.options.requestState.secrets === undefined && this.tools.size > 0) logger.warn(RANDOM_SECRET_WARNING);
  }

  /**
   * Opens the round of one request. `identifying` is what makes it this call (for tools/call: name and
   * arguments); a `requestState` sealed for anything else is refused.
   * @throws {McpMethodError} -32602 when the echoed `requestState` is refused
   */
  open(call: MethodCall, identifying: unknown): MrtrRound {
    const method = call.state.method!;
    if (!MRTR_METHODS.has(method)) throw new Error(`${method} cannot ask the client for input (only ${[...MRTR_METHODS].join(', ')} can)`);
    // Hashing the call's params costs a walk of the arguments: done only for a round that opens or seals a state.
    let bound: RequestBinding | undefined;
    const binding = () => (bound ??= requestBinding(this.options.path, method, identifying, call.state.auth?.subject));
    let earlier: RequestStateContent | undefined;
    const sealed = call.params.requestState;
    if (typeof sealed === 'string') {
      const opened = this.seal.open(sealed, binding());
      if (!opened.ok) throw refusedRequestState(opened.problem);
      earlier = opened.content;
    }
    const capabilities = (call.state.meta?.[META_KEYS.clientCapabilities] ?? {}) as Record<string, unknown>;
    const responses = call.params.inputResponses as Record<string, unknown> | undefined;
    return new MrtrRound({ method, binding, capabilities, responses, earlier, schemas: this.schemas });
  }

  /** Runs the handler of one round and decides the answer (see the class doc for the order). */
  async settle(round: MrtrRound, run: () => Promise<McpResult>, tool?: string): Promise<McpResult> {
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
      publish('mcp:mrtr:input_required', () => ({ tool, method: round.method, kinds: round.pendingKinds }));
      let requestState: string;
      try {
        requestState = this.seal.seal({ binding: round.binding, round: round.number, answers: round.carriedAnswers(), toolState: round.toolState });
      } catch (error) {
        if (!(error instanceof RequestStateTooLarge)) throw error;
        throw new McpMethodError(
          JSON_RPC_CODES.invalidParams,
          `Invalid params: the input responses are too large to carry to the next round (the requestState would exceed ${REQUEST_STATE_MAX_CHARS} characters); send smaller answers.`,
          { reason: 'request_state_too_large' },
          400,
        );
      }
      return { resultType: 'input_required', inputRequests: round.inputRequests(), requestState };
    }
    if (threw) throw new Error('an input-required signal reached a round that does not end input-required (a misused input request, or a context used outside its own call)');
    return result!;
  }
}

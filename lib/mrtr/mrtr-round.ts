import { McpMethodError, isMethodError } from '../errors/mcp-method.error.js';
import { quiet, rejected } from '../util/quiet-promise.js';
import type { InputChannel } from './input-channel.js';
import { InputKeys } from './input-keys.js';
import { INPUT_KINDS, inputRequestName, missingInputCapability, type InputKind } from './input-kinds.js';
import type { InputChecks, InputRequest } from './input-request.js';
import { McpInputRequired, recordMisuseAfter } from './input-required.js';
import { inInputResponses, readAnswer } from './input-responses.js';
import type { RequestBinding } from './request-binding.js';
import type { RequestStateContent } from './request-state-seal.js';

/** The largest tool state (`ctx.state`), in characters of JSON. */
const TOOL_STATE_MAX_CHARS = 65_536;

/** What a round starts from. */
export interface MrtrRoundInit extends InputChecks {
  readonly method: string;
  /** The round's request binding, computed on first use (only a round that seals or opens a state needs it). */
  readonly binding: () => RequestBinding;
  /** This request's client capabilities (never an earlier request's). */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** This retry's `inputResponses` (already a map of objects: method routing checked it). */
  readonly responses: Readonly<Record<string, unknown>> | undefined;
  /** The `requestState` this retry echoed, opened by `MrtrRounds.admit` before the handler runs. */
  readonly echoed: string | undefined;
}

/** The -32021 refusal (400) of an input request whose kind the client capabilities do not declare, or undefined when they do. */
export function undeclaredKind(kind: InputKind, request: InputRequest, capabilities: Readonly<Record<string, unknown>>): McpMethodError | undefined {
  const missing = INPUT_KINDS[kind].need(request.params, capabilities);
  return missing && missingInputCapability(inputRequestName(kind, request.params), ', which its clientCapabilities do not declare', missing);
}

/**
 * One round of a multi round-trip request: one execution of the handler and its input requests (docs/mrtr.md).
 * - Keys: explicit, else per-kind call order (`elicit-1`, …); a key used twice in one execution is a fault.
 * - Answers: the one sealed by an earlier round, else this retry's `inputResponses[key]`, read by `readAnswer`
 *   before the handler sees it; an unreadable one is the round's refusal.
 * - Pending: an unanswered request rejects after the current macrotask, so every request made before the handler
 *   awaits lands in one input-required result; it ends input-required even if the handler swallowed the signal,
 *   unless the handler misused an input request: that fault is the answer, and a request still pending then
 *   rejects with it too, so a handler that swallowed the misuse meets it again.
 * - Capabilities: a kind the client capabilities lack rejects at once with -32021 (catchable).
 * - Carried: the answers consumed and the tool state are sealed into the next `requestState`.
 * Proven by: test/e2e/mrtr.e2e-spec.ts, test/e2e/mrtr-capabilities.e2e-spec.ts (capabilities)
 */
export class MrtrRound implements InputChannel {
  private numberValue = 1;
  readonly method: string;
  private bindingValue: RequestBinding | undefined;
  /** The keys of this execution's input requests; a task the execution becomes goes on with them. */
  readonly keys = new InputKeys();
  private readonly pending = new Map<string, { kind: InputKind; request: InputRequest }>();
  private readonly consumed = new Map<string, unknown>();
  private earlierAnswers: Readonly<Record<string, unknown>> = {};
  private toolStateValue: unknown;
  private refusalError: McpMethodError | undefined;
  private signal: McpInputRequired | undefined;
  private closed = false;
  /** The first misuse's fault, boxed (a thrown value may be falsy). */
  private misuseFault: { thrown: unknown } | undefined;

  constructor(private readonly init: MrtrRoundInit) {
    this.method = init.method;
  }

  /** 1 for a first call, n + 1 when the client echoed the state of round n (once that state is admitted). */
  get number(): number {
    return this.numberValue;
  }

  /** The `requestState` this retry echoed, if any: until it is admitted, the round starts afresh. */
  get echoed(): string | undefined {
    return this.init.echoed;
  }

  /** Goes on from the round the admitted `requestState` sealed: its number, answers and tool state. */
  resume(earlier: RequestStateContent): void {
    this.numberValue = earlier.round + 1;
    this.earlierAnswers = earlier.answers;
    this.toolStateValue = earlier.toolState;
  }

  /** What a sealed state of this round is bound to (mount, method, call params, principal), computed once. */
  get binding(): RequestBinding {
    return (this.bindingValue ??= this.init.binding());
  }

  /** Asks the client for one input; resolves with the answer, or rejects (pending, refused, or a fault). */
  ask(kind: InputKind, params: unknown, explicitKey: string | undefined): Promise<unknown> {
    if (this.closed) return rejected(new Error(`${INPUT_KINDS[kind].method} asked after the request it belongs to was answered; a context is valid only during its own call`));
    let opened: { key: string; request: InputRequest };
    try {
      opened = this.keys.open(kind, explicitKey, params, this.init);
    } catch (thrown) {
      return this.misuse(thrown);
    }
    const { key, request } = opened;
    const undeclared = undeclaredKind(kind, request, this.init.capabilities);
    if (undeclared) return rejected(undeclared);

    const answer = Object.hasOwn(this.earlierAnswers, key)
      ? this.earlierAnswers[key]
      : this.init.responses && Object.hasOwn(this.init.responses, key)
        ? this.init.responses[key]
        : undefined;
    if (answer !== undefined) {
      try {
        const read = readAnswer(kind, inInputResponses(key), answer, request.params, this.init);
        this.consumed.set(key, read);
        return Promise.resolve(read);
      } catch (thrown) {
        if (isMethodError(thrown)) this.refusalError ??= thrown;
        return rejected(thrown);
      }
    }

    this.pending.set(key, { kind, request });
    return quiet(new Promise<unknown>((_, reject) => setImmediate(() => reject(this.pendingReason()))));
  }

  /** What a pending request rejects with: the first misuse's fault once there is one, else the round's one signal. */
  private pendingReason(): unknown {
    if (this.misuseFault) return this.misuseFault.thrown;
    return (this.signal ??= new McpInputRequired([...this.pending.keys()]));
  }

  /** Rejects with a fault of the caller's making, remembering it: the round then never ends input-required. */
  private misuse(fault: unknown): Promise<never> {
    this.misuseFault ??= { thrown: fault };
    if (this.signal) recordMisuseAfter(this.signal, this.misuseFault);
    return rejected(fault);
  }

  /** The tool's own state, carried to the next round in `requestState` (signed, readable by the client). */
  get toolState(): unknown {
    return this.toolStateValue;
  }

  set toolState(value: unknown) {
    if (this.closed) throw new Error('the tool state was set after the request it belongs to was answered');
    if (value !== undefined) {
      const json = JSON.stringify(value);
      if (json === undefined) throw new TypeError('the tool state must be a JSON value');
      if (json.length > TOOL_STATE_MAX_CHARS) throw new RangeError(`the tool state is ${json.length} characters of JSON, over the ${TOOL_STATE_MAX_CHARS} limit`);
    }
    this.toolStateValue = value;
  }

  /** The refusal of an unreadable answer, if one was met. */
  get refusal(): McpMethodError | undefined {
    return this.refusalError;
  }

  /** Whether the round ends input-required: a request is pending and none was misused (misuse is a fault to show). */
  get inputRequired(): boolean {
    return this.pending.size > 0 && !this.misuseFault;
  }

  /** The kinds of the pending input requests, each once, in the order first asked. */
  get pendingKinds(): InputKind[] {
    return [...new Set([...this.pending.values()].map((p) => p.kind))];
  }

  /** The pending input requests, as `inputRequests`. */
  inputRequests(): Record<string, InputRequest> {
    return Object.fromEntries([...this.pending].map(([key, { request }]) => [key, request]));
  }

  /** The answers to carry to the next round: those consumed in this execution. */
  carriedAnswers(): Record<string, unknown> {
    return Object.fromEntries(this.consumed);
  }

  /** Ends the round: later asks and state changes are faults of whoever makes them. */
  close(): void {
    this.closed = true;
  }
}

import { sealString, type RequestStateCodec } from '../contracts/request-state-codec.js';
import { isPlainObject } from '../util/is-plain-object.js';
import type { RequestBinding } from './request-binding.js';

/** The longest `requestState` this server issues or opens, in characters. */
export const REQUEST_STATE_MAX_CHARS = 1_048_576;

/** What a sealed `requestState` carries between rounds of one multi round-trip request. */
export interface RequestStateContent {
  /** The call this state belongs to. */
  readonly binding: RequestBinding;
  /** Which round produced it: 1 for the first input-required result. */
  readonly round: number;
  /** The answers the handler consumed in earlier rounds, by input-request key. */
  readonly answers: Readonly<Record<string, unknown>>;
  /** The tool state (`ctx.state`), when the handler set one. */
  readonly toolState?: unknown;
}

/** Why a `requestState` was refused. */
export type RequestStateProblem = 'malformed' | 'tampered' | 'expired' | 'other_call' | 'other_principal';

/** The result of opening a `requestState`: its content, or why it was refused. */
export type OpenedRequestState = { readonly ok: true; readonly content: RequestStateContent } | { readonly ok: false; readonly problem: RequestStateProblem };

/** The payload as the codec seals it (short keys: it travels on every retry). */
interface Payload {
  exp: number;
  c: string;
  p?: string;
  r: number;
  a: Record<string, unknown>;
  s?: unknown;
}

/**
 * Thrown by `seal` past {@link REQUEST_STATE_MAX_CHARS}; the tool state is capped far below that, so the client's
 * answers overflowed: a refusal (400 + -32602), not a fault.
 */
export class RequestStateTooLarge extends RangeError {
  override readonly name = 'RequestStateTooLarge';
  constructor(readonly chars: number) {
    super(`the sealed requestState would be ${chars} characters, over the ${REQUEST_STATE_MAX_CHARS} limit`);
  }
}

/**
 * The request-state seal: what a `requestState` holds and when it is trusted. Opening checks, in order: size and
 * format, the codec's verdict, payload shape, expiry, then the binding (computed only once the rest passed).
 */
export class RequestStateSeal {
  /**
   * @param codec seals and opens the payload
   * @param ttlMs how long a sealed state stays valid
   * @param now the clock (epoch milliseconds)
   */
  constructor(
    private readonly codec: RequestStateCodec,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seals the content of one round; throws {@link RequestStateTooLarge} past the size limit. */
  async seal(content: RequestStateContent): Promise<string> {
    const payload: Payload = { exp: this.now() + this.ttlMs, c: content.binding.call, r: content.round, a: { ...content.answers } };
    if (content.binding.principal !== undefined) payload.p = content.binding.principal;
    if (content.toolState !== undefined) payload.s = content.toolState;
    const sealed = await sealString(this.codec, JSON.stringify(payload));
    if (sealed.length > REQUEST_STATE_MAX_CHARS) throw new RequestStateTooLarge(sealed.length);
    return sealed;
  }

  /** Opens a state a client echoed; `binding` computes what this call's state must be bound to. */
  async open(sealed: string, binding: () => RequestBinding): Promise<OpenedRequestState> {
    if (sealed.length > REQUEST_STATE_MAX_CHARS) return { ok: false, problem: 'malformed' };
    const opened = await this.codec.open(sealed);
    if (!opened.ok) return { ok: false, problem: opened.problem === 'tampered' ? 'tampered' : 'malformed' };
    let payload: unknown;
    try {
      payload = JSON.parse(opened.payload);
    } catch {
      return { ok: false, problem: 'malformed' };
    }
    if (!isPlainObject(payload) || typeof payload.exp !== 'number' || typeof payload.c !== 'string' || !Number.isSafeInteger(payload.r) || !isPlainObject(payload.a))
      return { ok: false, problem: 'malformed' };
    if (this.now() > payload.exp) return { ok: false, problem: 'expired' };
    const expected = binding();
    if (payload.c !== expected.call) return { ok: false, problem: 'other_call' };
    if (payload.p !== expected.principal) return { ok: false, problem: 'other_principal' };
    return { ok: true, content: { binding: expected, round: payload.r as number, answers: payload.a, toolState: payload.s } };
  }
}

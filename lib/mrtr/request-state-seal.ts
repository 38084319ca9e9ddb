import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RequestBinding } from './request-binding.js';
import { isPlainObject } from '../util/is-plain-object.js';

/** The format version, the first segment of every sealed state. */
const VERSION = 'v1';
/** An HMAC-SHA256 tag in base64url: 32 bytes, 43 characters. */
const TAG = /^[A-Za-z0-9_-]{43}$/;
const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** The longest sealed state this server issues or opens, in characters. */
export const REQUEST_STATE_MAX_CHARS = 1_048_576;

/** The random secret used when none is configured: one per process, so only this process can open its states. */
let processSecret: Buffer | undefined;

/** What a sealed `requestState` carries between rounds of one multi round-trip request. */
export interface RequestStateContent {
  /** The call this state belongs to (see `RequestBinding`). */
  readonly binding: RequestBinding;
  /** Which round produced it: 1 for the first input-required result. */
  readonly round: number;
  /** The answers the tool consumed in earlier rounds, by input-request key. */
  readonly answers: Readonly<Record<string, unknown>>;
  /** The tool's own state (`ctx.state`), when it set one. */
  readonly toolState?: unknown;
}

/** Why a `requestState` was refused. */
export type RequestStateProblem = 'malformed' | 'tampered' | 'expired' | 'other_call' | 'other_principal';

/** The result of opening a `requestState`: its content, or why it was refused. */
export type OpenedRequestState = { readonly ok: true; readonly content: RequestStateContent } | { readonly ok: false; readonly problem: RequestStateProblem };

/** The payload as serialized inside the seal (short keys: it travels on every retry). */
interface Payload {
  exp: number;
  c: string;
  p?: string;
  r: number;
  a: Record<string, unknown>;
  s?: unknown;
}


/**
 * Thrown by `seal` when a round's content would seal to more than {@link REQUEST_STATE_MAX_CHARS} characters.
 * The tool state is capped far below that, so what overflows is the answers the client sent: the round answers
 * it as the client's refusal (400 + -32602), not as a fault.
 */
export class RequestStateTooLarge extends RangeError {
  override readonly name = 'RequestStateTooLarge';
  constructor(readonly chars: number) {
    super(`the sealed requestState would be ${chars} characters, over the ${REQUEST_STATE_MAX_CHARS} limit (tool state or answers too large)`);
  }
}

/**
 * The request-state seal: how `requestState` is made tamper-evident, so any instance behind a load balancer can
 * trust the state a client echoes without holding a session (DIGEST e, R100–R103).
 *
 * Rule it owns: a state is `v1.<base64url(JSON payload)>.<base64url(HMAC-SHA256(secret, "v1.<payload>"))>`; the
 * payload carries an expiry, the request binding (call and principal digests), the round, the answers consumed in
 * earlier rounds and the tool state. It is signed with the first configured secret and opened with any of them
 * (rotation: put the new secret first, keep the old one until the last state it signed has expired); tags are
 * compared with `timingSafeEqual`. A state is refused, before any tool sees it, when it is malformed, its tag
 * matches no secret (tampered, or sealed under another secret: indistinguishable by design), it has expired, or
 * it is bound to another call or another principal. Signed, not encrypted: the client can read the payload, so a
 * tool never puts a secret in its state. Without a configured secret, a random per-process secret is used.
 * Proven by: test/mrtr/request-state-seal.spec.ts, test/e2e/mrtr-request-state.e2e-spec.ts
 */
export class RequestStateSeal {
  private readonly keys: readonly Buffer[];

  /**
   * @param secrets the configured secrets, newest first; undefined for the random per-process secret
   * @param ttlMs how long a sealed state stays valid
   * @param now the clock (epoch milliseconds)
   */
  constructor(
    secrets: readonly string[] | undefined,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = secrets?.length ? secrets.map((s) => Buffer.from(s, 'utf8')) : [(processSecret ??= randomBytes(32))];
  }

  /**
   * Seals the content of one round. Throws when the content is not JSON-serializable or its sealed form exceeds
   * {@link REQUEST_STATE_MAX_CHARS} (a tool state or answers too large to carry).
   */
  seal(content: RequestStateContent): string {
    const payload: Payload = { exp: this.now() + this.ttlMs, c: content.binding.call, r: content.round, a: { ...content.answers } };
    if (content.binding.principal !== undefined) payload.p = content.binding.principal;
    if (content.toolState !== undefined) payload.s = content.toolState;
    const body = `${VERSION}.${Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url')}`;
    const sealed = `${body}.${this.tag(this.keys[0]!, body).toString('base64url')}`;
    if (sealed.length > REQUEST_STATE_MAX_CHARS)
      throw new RequestStateTooLarge(sealed.length);
    return sealed;
  }

  /** Opens a state a client echoed, checking tag, expiry and binding, in that order. */
  open(sealed: string, binding: RequestBinding): OpenedRequestState {
    const parts = sealed.length <= REQUEST_STATE_MAX_CHARS ? sealed.split('.') : [];
    if (parts.length !== 3 || parts[0] !== VERSION || !SEGMENT.test(parts[1]!)) return { ok: false, problem: 'malformed' };
    if (!TAG.test(parts[2]!)) return { ok: false, problem: 'tampered' };
    const body = `${parts[0]}.${parts[1]}`;
    const given = Buffer.from(parts[2]!, 'base64url');
    if (!this.keys.some((key) => timingSafeEqual(this.tag(key, body), given))) return { ok: false, problem: 'tampered' };
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    } catch {
      return { ok: false, problem: 'malformed' };
    }
    if (!isPlainObject(payload) || typeof payload.exp !== 'number' || typeof payload.c !== 'string' || !Number.isSafeInteger(payload.r) || !isPlainObject(payload.a))
      return { ok: false, problem: 'malformed' };
    if (this.now() > payload.exp) return { ok: false, problem: 'expired' };
    if (payload.c !== binding.call) return { ok: false, problem: 'other_call' };
    if (payload.p !== binding.principal) return { ok: false, problem: 'other_principal' };
    const content: RequestStateContent = { binding, round: payload.r as number, answers: payload.a, toolState: payload.s };
    return { ok: true, content };
  }

  private tag(key: Buffer, body: string): Buffer {
    return createHmac('sha256', key).update(body, 'utf8').digest();
  }
}

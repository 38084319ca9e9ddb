import { INPUT_KINDS, type InputKind } from './input-kinds.js';
import { buildInputRequest, checkInputKey, type InputChecks, type InputRequest } from './input-request.js';

/**
 * The keys of one input channel's requests: an explicit key as the tool gave it (checked), else the kind's next
 * derived key (`elicit-1`, `elicit-2`, …). A key is never handed out twice; a tool reusing one is at fault.
 */
export class InputKeys {
  private readonly counters: Record<InputKind, number> = { elicitation: 0, sampling: 0, roots: 0 };
  private readonly used = new Set<string>();

  /** Claims the key of a new request. Throws (the tool's fault) on a malformed or reused key. */
  private claim(kind: InputKind, explicit: string | undefined): string {
    checkInputKey(explicit);
    const key = explicit ?? `${INPUT_KINDS[kind].keyPrefix}-${++this.counters[kind]}`;
    if (this.used.has(key)) throw new Error(`input-request key "${key}" is used twice in one execution; give each request its own key`);
    this.used.add(key);
    return key;
  }

  /** Claims the key of a new request and builds the request. Throws (the tool's fault) like `claim` and `buildInputRequest`. */
  open(kind: InputKind, explicit: string | undefined, params: unknown, checks: InputChecks): { key: string; request: InputRequest } {
    const key = this.claim(kind, explicit);
    return { key, request: buildInputRequest(kind, params, checks) };
  }
}

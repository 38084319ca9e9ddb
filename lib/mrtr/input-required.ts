import { PASSES_CONTAINMENT } from '../errors/fault-containment.js';

/**
 * The input-required signal an unanswered `ctx.elicit` / `ctx.sample` / `ctx.listRoots` rejects with, ending this
 * execution. Not a fault: it passes containment. A tool that catches it must rethrow it, and one that swallows it
 * still cannot complete while a request is pending (`MrtrRound` decides). One signal per round.
 * @publicApi
 */
export class McpInputRequired extends Error {
  override readonly name = 'McpInputRequired';
  readonly [PASSES_CONTAINMENT] = true;

  /** @param keys the keys of the input requests pending when the signal was raised */
  constructor(readonly keys: readonly string[]) {
    super(`Input required from the client (${keys.join(', ')}); the call ends with an input-required result and runs again on retry.`);
  }
}

/** Tells the input-required signal apart without `instanceof` (which breaks across duplicated package copies). @publicApi */
export function isInputRequired(value: unknown): value is McpInputRequired {
  return (
    typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'McpInputRequired' && (value as Record<symbol, unknown>)[PASSES_CONTAINMENT] === true
  );
}

/** The misuse that followed a signal in its round, by signal (boxed: a thrown value may be falsy). */
const misuseAfterSignal = new WeakMap<object, { readonly thrown: unknown }>();

/** Records that `misuse`, a misused input request, followed `signal` in its round. */
export function recordMisuseAfter(signal: McpInputRequired, misuse: { readonly thrown: unknown }): void {
  misuseAfterSignal.set(signal, misuse);
}

/**
 * The misuse that followed `thrown`, when it is an input-required signal whose round then saw one: a tool that
 * caught the signal, misused an input request and rethrew the signal is answered with that fault, as one that
 * swallowed it is.
 */
export function misuseAfter(thrown: unknown): { readonly thrown: unknown } | undefined {
  return typeof thrown === 'object' && thrown !== null ? misuseAfterSignal.get(thrown) : undefined;
}

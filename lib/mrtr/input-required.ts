import { PASSES_CONTAINMENT } from '../errors/fault-containment.js';

/**
 * The input-required signal: what an unanswered `ctx.elicit` / `ctx.sample` / `ctx.listRoots` rejects with, to
 * end this execution of the tool (re-execution: the tool runs again from the start when the client retries with
 * the answers). It is not a fault: it carries the containment pass mark, so fault containment rethrows it and
 * the method handler answers an input-required result listing every input request of the round.
 *
 * Rule it owns: a tool never needs to catch it; one that does must rethrow it (check `passesContainment`), and
 * even a tool that swallows it cannot complete the call while an input request is pending (the round decides,
 * see `MrtrRound`). All pending calls of one round reject with the same signal.
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
    typeof value === 'object' &&
    value !== null &&
    (value as { name?: unknown }).name === 'McpInputRequired' &&
    (value as Record<symbol, unknown>)[PASSES_CONTAINMENT] === true
  );
}

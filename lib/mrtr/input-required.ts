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

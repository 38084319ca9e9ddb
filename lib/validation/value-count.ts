import type { ErrorObject, ValidateFunction } from 'ajv';

/**
 * How much of a failed check of what a caller sent is worth describing: shared by the protocol checks
 * (`ProtocolSchema`) and the value gate, so one rule bounds what one request can make the server collect.
 */

/**
 * The most JSON values (the value itself, and every member and item at any depth) a checked value may hold for a
 * failed check to name every problem. Past it, a failed check names the first problem only: collecting every
 * error of a value with hundreds of thousands of broken members (a 4 MiB map of broken `inputResponses`) costs
 * seconds and hundreds of megabytes, which one request must not be able to demand (ajv's own advice: no
 * `allErrors` on large untrusted input).
 */
export const DETAILED_CHECK_MAX_VALUES = 10_000;

/** Whether a JSON value holds more than `max` values; visits at most `max + 1` of them, without recursion. */
export function holdsMoreValuesThan(root: unknown, max: number): boolean {
  const stack: unknown[] = [root];
  let counted = 1;
  while (stack.length) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (++counted > max) return true;
      stack.push(child);
    }
  }
  return false;
}

/** What a failed check found: ajv's errors, and whether only the first problem was looked for. */
export interface FailedCheck {
  readonly errors: readonly ErrorObject[];
  readonly firstOnly: boolean;
}

/**
 * Runs a check of what a caller sent with two compilations of one schema: `first` (stops at the first problem)
 * decides, so a valid value is validated once and never counted; only a failing one is counted, and described
 * in full by `all` when it holds at most {@link DETAILED_CHECK_MAX_VALUES} values. Undefined when the value passes.
 */
export function failedCheck(all: ValidateFunction, first: ValidateFunction, value: unknown): FailedCheck | undefined {
  if (first(value)) return undefined;
  if (holdsMoreValuesThan(value, DETAILED_CHECK_MAX_VALUES)) return { errors: first.errors ?? [], firstOnly: true };
  all(value);
  return { errors: all.errors ?? [], firstOnly: false };
}

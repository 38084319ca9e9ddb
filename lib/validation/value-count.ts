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

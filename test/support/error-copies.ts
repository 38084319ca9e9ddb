import { jest } from '@jest/globals';

/** Whether a value looks like an ajv error object. */
const isAjvError = (value: unknown): boolean => typeof value === 'object' && value !== null && 'instancePath' in value && 'keyword' in value;

/** Runs `fn` with `Array.prototype[method]` watched, and sums what `counted` finds in each call meanwhile. */
async function watched(method: 'concat' | 'push', counted: (list: unknown[], items: unknown[]) => number, fn: () => Promise<unknown>): Promise<number> {
  let total = 0;
  const original = Array.prototype[method] as (this: unknown[], ...items: unknown[]) => unknown;
  const spy = jest.spyOn(Array.prototype, method).mockImplementation(function (this: unknown[], ...items: unknown[]) {
    total += counted(this, items);
    return original.apply(this, items);
  } as never);
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return total;
}

/**
 * Runs `fn` and counts the ajv errors copied by `Array.prototype.concat` meanwhile: ajv's stock merge of a failing
 * `$ref`'s errors copies every error so far, so N failing references copy O(N²) errors; an in-place merge copies none.
 */
export const ajvErrorsCopied = (fn: () => Promise<unknown>): Promise<number> => watched('concat', (list) => (list.length > 0 && isAjvError(list[0]) ? list.length : 0), fn);

/** How many ajv errors the code `fn` runs collects onto an error list (every `push` of one). */
export const ajvErrorsCollected = (fn: () => Promise<unknown>): Promise<number> =>
  watched('push', (_list, items) => (items.length > 0 && isAjvError(items[0]) ? items.length : 0), fn);

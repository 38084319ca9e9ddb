import { jest } from '@jest/globals';

/** Whether a value looks like an ajv error object. */
const isAjvError = (value: unknown): boolean => typeof value === 'object' && value !== null && 'instancePath' in value && 'keyword' in value;

/**
 * Runs `fn` and counts the ajv errors copied by `Array.prototype.concat` meanwhile: ajv's stock merge of a failing
 * `$ref`'s errors copies every error so far, so N failing references copy O(N²) errors; an in-place merge copies none.
 */
export async function ajvErrorsCopied(fn: () => Promise<unknown>): Promise<number> {
  let copied = 0;
  const concat = Array.prototype.concat;
  const spy = jest.spyOn(Array.prototype, 'concat').mockImplementation(function (this: unknown[], ...items: unknown[]) {
    if (this.length > 0 && isAjvError(this[0])) copied += this.length;
    return concat.apply(this, items);
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return copied;
}

/** How many ajv errors the code `fn` runs collects onto an error list (every `push` of one). */
export async function ajvErrorsCollected(fn: () => Promise<unknown>): Promise<number> {
  let collected = 0;
  const push = Array.prototype.push;
  const spy = jest.spyOn(Array.prototype, 'push').mockImplementation(function (this: unknown[], ...items: unknown[]) {
    if (items.length > 0 && isAjvError(items[0])) collected += items.length;
    return push.apply(this, items);
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return collected;
}

import { inspect } from 'node:util';

/**
 * The bounded-rendering helper: the one way anything a caller sent, or a fault carried, is quoted back on the
 * wire or into a log line.
 *
 * Rule it owns: a rendering is at most `max` characters (an ellipsis marks a cut), carries no control
 * character (each is written as its `\u` escape), and is total: whatever it is handed (a cyclic object, a
 * Proxy whose traps throw, a getter that throws, a BigInt, a Symbol) it returns a string and never throws.
 * Proven by: test/util/bounded.spec.ts
 */

/** Default length of a bounded rendering, in characters. @publicApi */
export const BOUND_DEFAULT = 120;

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Replaces every control character with its `\u` escape, four hex digits (the scrub half of bounding). */
export function scrub(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Cuts `text` to `max` characters, an ellipsis marking the cut, never splitting a surrogate pair (the cut half of bounding). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  // Never split a surrogate pair: a lone half would not survive JSON as the character it was part of.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Scrubs and cuts; only the first `max + 1` characters are ever read, so a huge string costs what a short one does. */
function bound(text: string, max: number): string {
  return cut(scrub(text.length > max ? text.slice(0, max + 1) : text), max);
}

/**
 * Renders a value for a human or an LLM reader: strings as they are, other values as compact JSON-like text;
 * scrubbed and cut to `max` characters. Total.
 * @publicApi
 */
export function bounded(value: unknown, max: number = BOUND_DEFAULT): string {
  try {
    let text: string;
    if (typeof value === 'string') text = value;
    else if (value instanceof Error) text = `${String(value.name).slice(0, max)}: ${String(value.message).slice(0, max)}`;
    else
      text = inspect(value, {
        depth: 3,
        breakLength: Infinity,
        maxArrayLength: 20,
        maxStringLength: max,
        compact: true,
        customInspect: false,
        getters: false,
      });
    return bound(text, max);
  } catch {
    return '<unrenderable value>';
  }
}

/**
 * Renders a value quoted, for a refusal that names what the caller sent (`"abc"`, `42`). Total.
 * @publicApi
 */
export function quoted(value: unknown, max: number = BOUND_DEFAULT): string {
  try {
    if (typeof value === 'string') return `"${bound(value, Math.max(1, max - 2))}"`;
  } catch {
    return '<unrenderable value>';
  }
  return bounded(value, max);
}

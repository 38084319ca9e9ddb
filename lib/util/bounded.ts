import { inspect } from 'node:util';

import { isError } from './is-error.js';

/**
 * The one way anything a caller sent, or a fault carried, is quoted on the wire or in a log: at most `max`
 * characters, control characters escaped, and total (never throws, whatever it is handed).
 * Proven by: test/util/bounded.spec.ts
 */

/** Default length of a bounded rendering, in characters (`bounded`'s default `max`). */
export const BOUND_DEFAULT = 120;

/**
 * Control characters, line and paragraph separators, the invisible marks that reorder or hide text (bidi controls),
 * and lone surrogate halves (a half without its pair is no character: a reader re-encoding the text as UTF-8 fails).
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Replaces every control character with its `\u` escape, four hex digits (the scrub half of bounding): a refusal
 * quoting what a caller sent cannot carry a line break, a U+202E that makes the text read otherwise than it is, or
 * a lone surrogate.
 */
export function scrub(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Cuts `text` to `max` characters, an ellipsis marking the cut, never splitting a surrogate pair (the cut half of bounding). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  // A lone surrogate half would not survive JSON as the character it was part of.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Scrubs and cuts; only the first `max + 1` characters are ever read, so a huge string costs what a short one does. */
function bound(text: string, max: number): string {
  return cut(scrub(text.length > max ? text.slice(0, max + 1) : text), max);
}

/** Renders a value for a human or LLM reader (strings as they are, others as compact JSON-like text), bounded. Total. @publicApi */
export function bounded(value: unknown, max: number = BOUND_DEFAULT): string {
  try {
    let text: string;
    if (typeof value === 'string') text = value;
    else if (isError(value)) text = `${String(value.name).slice(0, max)}: ${String(value.message).slice(0, max)}`;
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

/** Renders a value quoted, for a refusal naming what the caller sent (`"abc"`, `42`), bounded. Total. @publicApi */
export function quoted(value: unknown, max: number = BOUND_DEFAULT): string {
  try {
    if (typeof value === 'string') return `"${bound(value, Math.max(1, max - 2))}"`;
  } catch {
    return '<unrenderable value>';
  }
  return bounded(value, max);
}

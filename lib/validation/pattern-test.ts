import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';

import { quoted } from '../util/bounded.js';
import { isStackOverflow } from '../util/stack-overflow.js';

/**
 * Thrown where V8 cannot finish matching a caller's string against a schema's pattern: a string of millions of
 * characters against a pattern repeating a group (`^([a-z0-9])+$`) overflows irregexp's backtrack stack, which
 * throws the `RangeError` a deep call stack does. Neither a match nor a mismatch: the string (`sent`) is refused
 * as too long to be matched, never read as nested too deeply, nor left a fault.
 */
export class PatternOverflowError extends Error {
  override readonly name = 'PatternOverflowError';

  constructor(
    readonly pattern: string,
    readonly sent: string,
  ) {
    super(`is ${sent.length} characters long, too long to be matched against the pattern ${quoted(pattern, 100)}`);
  }
}

/** `regex.test(s)`, V8's backtrack overflow thrown as a {@link PatternOverflowError}. */
export function patternTest(regex: RegExp, s: string): boolean {
  try {
    return regex.test(s);
  } catch (thrown) {
    if (isStackOverflow(thrown)) throw new PatternOverflowError(regex.source, s);
    throw thrown;
  }
}

/** A pattern as ajv holds it: spelled as its RegExp (ajv keys its compiled patterns by that), tested by {@link patternTest}. */
class Pattern implements RegExpLike {
  constructor(private readonly regex: RegExp) {}

  test(s: string): boolean {
    return patternTest(this.regex, s);
  }

  toString(): string {
    return this.regex.toString();
  }
}

/** The ajv `code.regExp` of caller-value checks: `pattern` and `patternProperties` tested by {@link patternTest}. */
export const PATTERN_ENGINE: RegExpEngine = Object.assign((pattern: string, flags: string) => new Pattern(new RegExp(pattern, flags)), {
  // Only standalone code reads it, and a caller-value check is never generated as such.
  code: 'PATTERN_ENGINE',
});

/**
 * Where `sent` (a string {@link PatternOverflowError} names) sits in `root`: the path to the first value or key
 * that is it, as a refusal names it; iterative. Undefined where it is neither (a check of a copy).
 */
export function placeOf(root: unknown, sent: string): (string | number)[] | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (value === sent) return path;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
    else
      for (const key of Object.keys(value).reverse()) {
        if (key === sent) return [...path, key];
        stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
      }
  }
  return undefined;
}

import { DETAILED_CHECK_MAX_ERRORS } from './linear-errors.js';
import type { SchemaProblem } from './schema-problems.js';
import { locationsTooLong } from './value-count.js';

/**
 * What a number JSON text spells but a parser cannot hold must be instead: `1e400` is valid JSON and parses to
 * Infinity, which no handler should meet and no answer can repeat (`JSON.stringify` writes `null`).
 */
export const FINITE_NUMBER = 'must be a number within ±1.8e308 (a larger one reads as Infinity)';

/** The numbers out of range of a value, located: all of them, or past the detailed-check bound the first only. */
export interface OutOfRange {
  readonly problems: readonly SchemaProblem[];
  /**
   * Set when the value holds more than `DETAILED_CHECK_MAX_ERRORS` of them, or their locations spell more than
   * `DETAILED_CHECK_MAX_PATH_CHARS` characters together: `problems` then names the first.
   */
  readonly firstOnly: boolean;
}

const NONE: OutOfRange = Object.freeze({ problems: Object.freeze([]), firstOnly: false });

/**
 * Each number out of range in a parsed JSON value, as a {@link FINITE_NUMBER} problem at its path: none looked for
 * when `inRange` (the parse step's walk found none), else the cheap walk first and the located one only for a value
 * that holds one; `skipped` (a container inside it) is not looked into. Past `DETAILED_CHECK_MAX_ERRORS` of them,
 * or past `DETAILED_CHECK_MAX_PATH_CHARS` characters of their locations, the first only (the detailed-check bound):
 * locating each costs its depth, and describing each (its data path, its instance location) costs more.
 */
export function numbersOutOfRange(value: unknown, { inRange = false, skipped }: { inRange?: boolean; skipped?: object } = {}): OutOfRange {
  if (inRange || !holdsNonFiniteNumber(value)) return NONE;
  const problems = nonFiniteNumbers(value, skipped, DETAILED_CHECK_MAX_ERRORS + 1);
  return problems.length > DETAILED_CHECK_MAX_ERRORS || locationsTooLong(problems, pointerChars)
    ? { problems: problems.slice(0, 1), firstOnly: true }
    : { problems, firstOnly: false };
}

/** The characters of a problem's location as a JSON pointer spells it (a `/` and each segment). */
function pointerChars({ path }: SchemaProblem): number {
  let chars = 0;
  for (const segment of path) chars += 1 + String(segment).length;
  return chars;
}

/** Whether any number in a parsed JSON value is not finite: the cheap walk, allocating only its stack. */
export function holdsNonFiniteNumber(root: unknown): boolean {
  if (typeof root === 'number') return !Number.isFinite(root);
  if (typeof root !== 'object' || root === null) return false;
  const stack: object[] = [root];
  while (stack.length) {
    const container = stack.pop()!;
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) if (meets(container[i], stack)) return true;
    } else for (const key in container) if (meets((container as Record<string, unknown>)[key], stack)) return true;
  }
  return false;
}

/** One child of the cheap walk: true for a non-finite number; a container is stacked to be walked. */
function meets(child: unknown, stack: object[]): boolean {
  if (typeof child === 'number') return !Number.isFinite(child);
  if (typeof child === 'object' && child !== null) stack.push(child);
  return false;
}

/**
 * Each non-finite number in a parsed JSON value, in document order, as a {@link FINITE_NUMBER} problem at its path,
 * the first `max` of them; `skipped` (a container inside `root`) is not looked into. Iterative, so no nesting can
 * overflow it.
 */
export function nonFiniteNumbers(root: unknown, skipped?: object, max = Infinity): SchemaProblem[] {
  const found: SchemaProblem[] = [];
  const path: (string | number)[] = [];
  // Depth-first in document order: each frame is a container with its keys and the next one to visit.
  const frames: { entries: [string | number, unknown][]; next: number }[] = [];
  const enter = (value: unknown): void => {
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) found.push({ path: [...path], problem: FINITE_NUMBER });
    } else if (typeof value === 'object' && value !== null && value !== skipped)
      frames.push({ entries: Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value), next: 0 });
  };
  enter(root);
  while (frames.length && found.length < max) {
    const frame = frames.at(-1)!;
    if (frame.next === frame.entries.length) {
      frames.pop();
      path.pop();
      continue;
    }
    const [key, value] = frame.entries[frame.next++]!;
    path.push(key);
    const depth = frames.length;
    enter(value);
    if (frames.length === depth) path.pop();
  }
  return found;
}

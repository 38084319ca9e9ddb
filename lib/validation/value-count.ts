import type { ErrorObject, ValidateFunction } from 'ajv';

import { isStackOverflow } from '../util/stack-overflow.js';
import type { ItemLimits } from './bounded-schema.js';
import { DETAILED_CHECK_MAX_ERRORS, cappedCheck } from './linear-errors.js';
import type { UnionFactsOf, UnionLookup } from './union-branches.js';

/**
 * The detailed-check bound: the most JSON values (at any depth) a caller-sent value may hold for a failed check to
 * name every problem; past it only the first is named, since collecting every error of a huge broken value costs
 * seconds and hundreds of megabytes that one request must not be able to demand.
 */
export const DETAILED_CHECK_MAX_VALUES = 10_000;

/**
 * The most characters the locations of one check's errors may spell together (their `instancePath`s) for the check
 * to name every problem: describing an error walks its location, so a thousand errors 120 levels deep, or under
 * keys a thousand characters long, cost a hundred times as much as a thousand shallow ones. Past it only the first
 * is named, as past `DETAILED_CHECK_MAX_ERRORS`.
 */
export const DETAILED_CHECK_MAX_PATH_CHARS = 64_000;

/**
 * Whether locations spell more than {@link DETAILED_CHECK_MAX_PATH_CHARS} characters together, `charsOf` spelling
 * each item's (an ajv error's `instancePath`, a located problem's path as a JSON pointer).
 */
export function locationsTooLong<T>(items: readonly T[], charsOf: (item: T) => number): boolean {
  let chars = 0;
  for (const item of items) if ((chars += charsOf(item)) > DETAILED_CHECK_MAX_PATH_CHARS) return true;
  return false;
}

/** The characters of an ajv error's location. */
const instancePathChars = (error: ErrorObject): number => error.instancePath.length;

/** Whether a JSON value holds more than `max` values; visits at most `max + 1` of them, without recursion. */
function holdsMoreValuesThan(root: unknown, max: number): boolean {
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
  /** Present (true) when the every-problem validator ran out of stack on the value: `errors` are the first problem's. */
  readonly tooDeep?: true;
  /** Places the problems ajv's schema paths do not (see `UnionLookup`), when every problem was looked for. */
  readonly unionLookup?: UnionLookup;
  /** The facts of the schema's unions (see `UnionFacts`), when it has any and every problem was looked for. */
  readonly unionFacts?: UnionFactsOf;
}

/**
 * Checks a caller-sent value: `first` decides, so a valid value is validated once and never counted; a failing one
 * is described in full by `all` when it holds at most {@link DETAILED_CHECK_MAX_VALUES} values and fails in at most
 * `DETAILED_CHECK_MAX_ERRORS` ways at locations spelling at most {@link DETAILED_CHECK_MAX_PATH_CHARS} characters
 * (else by its first problem). Undefined on a pass. `all` keeps more on the stack at each level of a recursive schema
 * than `first`: where it overflows, the first problem stands (`tooDeep`); where `first` does, the overflow is thrown,
 * as nothing was checked.
 */
export function failedCheck(all: ValidateFunction, first: ValidateFunction, value: unknown): FailedCheck | undefined {
  if (first(value)) return undefined;
  const firstProblem = { errors: first.errors ?? [], firstOnly: true };
  if (holdsMoreValuesThan(value, DETAILED_CHECK_MAX_VALUES)) return firstProblem;
  try {
    if (cappedCheck(all, value) === 'too_many' || locationsTooLong(all.errors ?? [], instancePathChars)) return firstProblem;
  } catch (thrown) {
    if (isStackOverflow(thrown)) return { ...firstProblem, tooDeep: true };
    throw thrown;
  }
  return { errors: all.errors ?? [], firstOnly: false };
}

/**
 * {@link failedCheck} for a bounded schema, from its every-problem validator alone: an array over its `maxItems` is
 * found first, so `all` only ever runs where it visits a bounded number of locations. Past
 * {@link DETAILED_CHECK_MAX_VALUES} values, past `DETAILED_CHECK_MAX_ERRORS` errors, or past
 * {@link DETAILED_CHECK_MAX_PATH_CHARS} characters of their locations, the answer names one problem, as `failedCheck`'s
 * does.
 */
export function failedBoundedCheck(all: ValidateFunction, limits: ItemLimits, value: unknown): FailedCheck | undefined {
  const over = limits.overLimit(value);
  if (!over && all(value)) return undefined;
  if (holdsMoreValuesThan(value, DETAILED_CHECK_MAX_VALUES)) return { errors: over ? [over] : (all.errors ?? []).slice(0, 1), firstOnly: true };
  if (over) all(value);
  const errors = all.errors ?? [];
  return errors.length > DETAILED_CHECK_MAX_ERRORS || locationsTooLong(errors, instancePathChars)
    ? { errors: errors.slice(0, 1), firstOnly: true }
    : { errors, firstOnly: false };
}

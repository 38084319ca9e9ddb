// The error tree: which of ajv's errors each failing trying keyword (`anyOf`, `oneOf`, `contains`) owns as its trials.

import type { ErrorObject } from 'ajv';

import { escapedSegment } from '../util/json-pointer.js';
import type { UnionFactsOf } from './union-branches.js';

/** Keywords that try subschemas and answer for the outcome themselves: their trials' errors are not offences. */
export const TRYING = new Set(['anyOf', 'oneOf', 'contains']);

/** Where an error is, as a JSON pointer: its instance location, then the key `propertyNames` refused when there is one. */
export const pointerOf = (error: ErrorObject): string =>
  error.propertyName === undefined ? error.instancePath : `${error.instancePath}/${escapedSegment(error.propertyName)}`;

/** Whether `pointer` is `at` or a location below it. */
const isAtOrBelow = (pointer: string, at: string): boolean => at === '' || pointer === at || pointer.startsWith(`${at}/`);

/**
 * ajv's errors as a tree: a failing trying keyword owns its trials' errors, the contiguous run ajv pushed just
 * before it at or below its location (schema paths cannot tell, `$ref` moves them). `children` lists by index the
 * errors each keyword owns directly (a nested keyword's own under it), the top level under -1.
 */
export interface ErrorTree {
  readonly errors: readonly ErrorObject[];
  readonly children: ReadonlyMap<number, readonly number[]>;
  /** Where the run of errors each trying keyword owns starts (by index; the run ends just before it). */
  readonly runStart: ReadonlyMap<number, number>;
}

/**
 * Builds the tree of one list of errors, once, in linear steps: a nested keyword's run is skipped in one. A union
 * whose `facts` say it is exact owns only errors at or below its schema path: what precedes them is another
 * keyword's (one beside it that ajv evaluated first).
 */
function errorTree(errors: readonly ErrorObject[], facts?: UnionFactsOf): ErrorTree {
  const owner = new Array<number>(errors.length).fill(-1);
  const runStart = new Map<number, number>();
  for (let i = 0; i < errors.length; i++) {
    const error = errors[i]!;
    if (!TRYING.has(error.keyword)) continue;
    const at = pointerOf(error);
    const within = error.keyword !== 'contains' && facts?.(error.schemaPath)?.exact ? `${error.schemaPath}/` : undefined;
    let j = i - 1;
    while (
      j >= 0 &&
      isAtOrBelow(pointerOf(errors[j]!), at) &&
      (within === undefined ? !inOtherBranch(errors[j]!.schemaPath, error.schemaPath) : errors[j]!.schemaPath.startsWith(within))
    ) {
      owner[j] = i;
      j = (runStart.get(j) ?? j) - 1;
    }
    runStart.set(i, j + 1);
  }
  const children = new Map<number, number[]>();
  for (const [index, by] of owner.entries()) {
    const owned = children.get(by);
    if (owned) owned.push(index);
    else children.set(by, [index]);
  }
  return { errors, children, runStart };
}

/** Some of a tree's errors at one level (a branch's, say), by index: what is described together. */
export interface ErrorsAt {
  readonly tree: ErrorTree;
  readonly members: readonly number[];
}

/** The errors of one level, in ajv's order. */
export const errorsIn = ({ tree, members }: ErrorsAt): ErrorObject[] => members.map((member) => tree.errors[member]!);

/**
 * Whether schema path `path` lies in another branch of a union that `unionPath` lies in a branch of: the two part
 * just after an `anyOf`/`oneOf`, at different indexes (an error a union at `unionPath`, itself a branch of another,
 * cannot own: its run would take its outer union's earlier branches).
 */
function inOtherBranch(path: string, unionPath: string): boolean {
  const a = path.split('/');
  const b = unionPath.split('/');
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k > 0 && k < a.length && k < b.length && (a[k - 1] === 'anyOf' || a[k - 1] === 'oneOf') && /^\d+$/.test(a[k]!) && /^\d+$/.test(b[k]!);
}

/** The top level of `errors`. */
export function topLevel(errors: readonly ErrorObject[], facts?: UnionFactsOf): ErrorsAt {
  const tree = errorTree(errors, facts);
  return { tree, members: tree.children.get(-1) ?? [] };
}

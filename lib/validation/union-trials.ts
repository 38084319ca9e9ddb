// A failing union's trials read by branch: which branch each trial error is in, and what each branch's trial tells of it.

import type { ErrorObject } from 'ajv';

import { pointerSegments } from '../util/json-pointer.js';
import { errorsIn, pointerOf, topLevel, type ErrorTree, type ErrorsAt } from './error-tree.js';
import type { FoundUnion, UnionFactsOf, UnionLookup } from './union-branches.js';

/** Whether `pointer` is one property or item below `at`. */
const isChildOf = (pointer: string, at: string): boolean => pointer.startsWith(`${at}/`) && !pointer.includes('/', at.length + 1);

/** A failing `anyOf`/`oneOf`'s trial errors by branch, and which branches its value rules out. */
export interface UnionTrials {
  readonly branches: ReadonlyMap<number, ErrorsAt>;
  /** Each ruled-out branch's `const`/`enum` errors: at the union's own place (a literal), or at a discriminator. */
  readonly ruledOut: ReadonlyMap<number, readonly ErrorObject[]>;
  /** The branches whose `type` the value itself is not (an object sent where a branch wants an array, say). */
  readonly mistyped: ReadonlySet<number>;
  /** The branches requiring properties the value does not have, with those properties. */
  readonly incomplete: ReadonlyMap<number, ReadonlySet<string>>;
  /** Each mistyped branch's JSON types, in branch order. */
  readonly branchTypes: ReadonlyMap<number, readonly string[]>;
  /** Errors its run holds before its trials (a counted union's; see {@link FoundUnion.counted}): not its own. */
  readonly extras: ErrorsAt;
}

/** Adds `item` to its branch's list in `byBranch`. */
function placeIn<T>(byBranch: Map<number, T[]>, branch: number, item: T): void {
  const placed = byBranch.get(branch);
  if (placed) placed.push(item);
  else byBranch.set(branch, [item]);
}

/** The branch of `union` whose schema path `error`'s lies below, or undefined where it lies elsewhere. */
function branchByPath(union: ErrorObject, { schemaPath }: ErrorObject): number | undefined {
  const prefix = `${union.schemaPath}/`;
  return schemaPath.startsWith(prefix) ? Number.parseInt(schemaPath.slice(prefix.length), 10) : undefined;
}

/** One error a union owns directly (a nested trying keyword stands for its own trials), and its branch once known. */
interface TrialUnit {
  readonly member: number;
  branch?: number;
}

/**
 * Places the units schema paths could not (inside a `$ref` or a recursion) where the order alone decides: ajv tries
 * the branches in turn and a failed branch leaves at least one error, so unplaced units between units of branches
 * `a` and `b` are in `a` when `a` is `b`, and take the branches between in turn when there are as many of them as
 * units. Units after the last placed one stay unplaced unless `branchCount` says how many branches follow.
 */
function placeByOrder(units: TrialUnit[], branchCount?: number): void {
  for (let i = 0; i < units.length;) {
    if (units[i]!.branch !== undefined) {
      i++;
      continue;
    }
    let k = i;
    while (k < units.length && units[k]!.branch === undefined) k++;
    const before = i > 0 ? units[i - 1]!.branch! : -1;
    const after = k < units.length ? units[k]!.branch : branchCount;
    if (after === undefined) return;
    for (let m = i; m < k; m++) {
      if (before === after) units[m]!.branch = before;
      else if (after - before - 1 === k - i) units[m]!.branch = before + 1 + (m - i);
    }
    i = k;
  }
}

/**
 * The trial errors of a failing `anyOf`/`oneOf`, placed in their branches: by schema path (a nested trying keyword's
 * trials with it), by order where that decides (see {@link placeByOrder}, with the union's branch count from `lookup`
 * where the paths leave errors unplaced), or for branches that are or hold a `$ref` by checking them alone (a
 * counted union's trials then read back branch by branch, see {@link countedTrials}). Undefined for `contains`, when
 * `oneOf` failed by matching several, or when a trial error cannot be placed.
 */
export function unionTrials(tree: ErrorTree, index: number, lookup?: UnionLookup, facts?: UnionFactsOf): UnionTrials | undefined {
  const { errors, children } = tree;
  const union = errors[index]!;
  if (union.keyword === 'contains' || (union.params as { passingSchemas?: unknown }).passingSchemas != null) return undefined;
  const pathBranch = (error: ErrorObject): number | undefined => branchByPath(union, error);
  const units: TrialUnit[] = (children.get(index) ?? []).map((member) => ({ member, branch: pathBranch(errors[member]!) }));
  placeByOrder(units);
  let placed = units;
  let extras: ErrorsAt = { tree, members: [] };
  const branches = new Map<number, ErrorsAt>();
  const unplaced = units.some((unit) => unit.branch === undefined);
  // A union whose branches hold references is looked up even when its paths place every error: a union nested in it
  // may have taken the errors of its referenced branches into its own run.
  const found = unplaced || (lookup && facts?.(union.schemaPath)?.exact === false) ? lookup?.(union) : undefined;
  if (unplaced && !found) return undefined;
  if (found && (unplaced || found.counted)) {
    const { refTrials } = found;
    if (found.counted) {
      const counted = countedTrials(tree, index, found, facts);
      if (!counted) return undefined;
      extras = counted.extras;
      placed = [];
      for (const [branch, trial] of counted.inPlace) branches.set(branch, trial);
    } else {
      placeByOrder(units, found.branchCount);
      // Without `$ref` branches, nothing else can account for an error the order leaves unplaced.
      if (refTrials.size === 0 && units.some((unit) => unit.branch === undefined)) return undefined;
      placed = units.filter((unit) => unit.branch !== undefined && !refTrials.has(unit.branch));
    }
    for (const [branch, branchErrors] of refTrials) branches.set(branch, topLevel(branchErrors, facts));
  }
  const byBranch = new Map<number, number[]>();
  for (const { member, branch } of placed) placeIn(byBranch, branch!, member);
  for (const [branch, members] of byBranch) branches.set(branch, { tree, members });
  // In branch order, whichever way each was placed: the values and types a problem names follow it.
  const ordered = new Map([...branches].sort(([a], [b]) => a - b));
  const at = pointerOf(union);
  // Without the schema's facts, a const/enum problem at any property of the value is taken for a discriminator's.
  const discriminators = facts && (facts(union.schemaPath)?.discriminators ?? new Set<string>());
  const reading: VerdictReading = {
    at,
    discriminates: (pointer) => discriminators === undefined || discriminators.has(String(pointerSegments(pointer).at(-1))),
    nested: facts !== undefined,
    lookup,
    facts,
  };
  const ruledOut = new Map<number, readonly ErrorObject[]>();
  const mistyped = new Set<number>();
  const incomplete = new Map<number, ReadonlySet<string>>();
  const branchTypes = new Map<number, readonly string[]>();
  for (const [branch, errorsAt] of ordered) {
    const verdict = verdictOf(errorsAt, reading);
    if (verdict.ruledOut?.length) ruledOut.set(branch, verdict.ruledOut);
    if (verdict.types) {
      mistyped.add(branch);
      branchTypes.set(branch, verdict.types);
    }
    if (verdict.missing?.size) incomplete.set(branch, verdict.missing);
  }
  return { branches: ordered, ruledOut, mistyped, incomplete, branchTypes, extras };
}

/** What one trial tells of its branch (see {@link verdictOf}). */
interface BranchVerdict {
  /** The `const`/`enum` problems that rule it out: at the union's own place, or at a discriminator of it. */
  readonly ruledOut?: readonly ErrorObject[];
  /** The JSON types it takes, when the value is of none of them. */
  readonly types?: readonly string[];
  /** The required properties it names that the value lacks. */
  readonly missing?: ReadonlySet<string>;
}

/** How the trials of one union are read: at its place, with its discriminators. */
interface VerdictReading {
  readonly at: string;
  readonly discriminates: (pointer: string) => boolean;
  /** Whether a branch that is itself a union may be ruled out as a whole (only where the facts name discriminators). */
  readonly nested: boolean;
  readonly lookup: UnionLookup | undefined;
  readonly facts: UnionFactsOf | undefined;
}

/**
 * What a branch's trial tells of it. A branch that is itself a failed union at the same place (zod's nested or
 * nullable discriminated union), reported by that union alone, is read through its own branches: of no type the
 * value is when none is, ruled out when each is (by this union's discriminators), missing what its picked branch, or
 * every branch left, misses.
 */
function verdictOf(level: ErrorsAt, reading: VerdictReading): BranchVerdict {
  const { tree, members } = level;
  const { at, discriminates } = reading;
  const only = members.length === 1 ? tree.errors[members[0]!]! : undefined;
  if (only && (only.keyword === 'anyOf' || only.keyword === 'oneOf') && pointerOf(only) === at) {
    const inner = unionTrials(tree, members[0]!, reading.lookup, reading.facts);
    if (inner && inner.extras.members.length === 0) return nestedVerdict(inner, reading);
  }
  const ruledOut: ErrorObject[] = [];
  let types: string[] | undefined;
  const missing = new Set<string>();
  for (const error of errorsIn(level)) {
    // The value itself not the literal a branch is (zod's union of literals), or a discriminator of it.
    const fixed = error.keyword === 'const' || error.keyword === 'enum';
    const self = error.instancePath === at && error.propertyName === undefined;
    if (fixed && (self || (isChildOf(error.instancePath, at) && discriminates(error.instancePath)))) ruledOut.push(error);
    if (error.keyword === 'type' && self) types = String((error.params as { type?: unknown }).type).split(',');
    if (error.keyword === 'required' && error.instancePath === at) missing.add(String((error.params as { missingProperty?: unknown }).missingProperty));
  }
  return { ruledOut, types, missing };
}

/** The verdict of a branch that is a union whose trials are `inner` (see {@link verdictOf}). */
function nestedVerdict(inner: UnionTrials, reading: VerdictReading): BranchVerdict {
  const verdicts = [...inner.branches.values()].map((branch) => verdictOf(branch, reading));
  if (verdicts.every((verdict) => verdict.types)) return { types: [...new Set(verdicts.flatMap((verdict) => verdict.types!))] };
  if (reading.nested && verdicts.every((verdict) => verdict.types || verdict.ruledOut?.length)) return { ruledOut: verdicts.flatMap((verdict) => verdict.ruledOut ?? []) };
  // What it misses: its picked branch's, else what every branch it leaves misses.
  const left = branchesLeft(inner);
  const misses = left.map((branch) => inner.incomplete.get(branch));
  if (misses.length === 0 || misses.some((names) => names === undefined)) return {};
  return { missing: new Set([...misses[0]!].filter((name) => misses.every((names) => names!.has(name)))) };
}

/**
 * A counted union's trials (see {@link FoundUnion.counted}), read back from the error just before it: ajv tries the
 * branches in order and each leaves its errors together, so from the last branch back, a branch checked on its own
 * takes as many as that check reported (the same keywords at the same places), and one written in place those at
 * its schema path. What its run holds before them is `extras`, a keyword's beside it. Each part is read as a tree of
 * its own: a union nested in one part cannot take another part's errors into its run. Undefined when the errors do
 * not read so (a branch without an error, a check's errors not matching, an error at a branch's path before them).
 */
function countedTrials(
  { errors, runStart }: ErrorTree,
  index: number,
  { branchCount, refTrials }: FoundUnion,
  facts: UnionFactsOf | undefined,
): { inPlace: Map<number, ErrorsAt>; extras: ErrorsAt } | undefined {
  const union = errors[index]!;
  const first = runStart.get(index) ?? index;
  const inPlace = new Map<number, ErrorsAt>();
  let end = index;
  for (let branch = branchCount - 1; branch >= 0; branch--) {
    const trial = refTrials.get(branch);
    let start = end;
    if (trial) {
      start = end - trial.length;
      if (start < first || trial.some((error, k) => error.keyword !== errors[start + k]!.keyword || error.instancePath !== errors[start + k]!.instancePath)) return undefined;
    } else {
      while (start > first && branchByPath(union, errors[start - 1]!) === branch) start--;
      inPlace.set(branch, topLevel(errors.slice(start, end), facts));
    }
    if (start === end) return undefined;
    end = start;
  }
  const before = errors.slice(first, end);
  return before.some((error) => branchByPath(union, error) !== undefined) ? undefined : { inPlace, extras: topLevel(before, facts) };
}

/** The branches neither ruled out by a discriminator nor of a JSON type the value is not, in branch order. */
export function branchesLeft({ branches, ruledOut, mistyped }: UnionTrials): number[] {
  return [...branches.keys()].filter((branch) => !ruledOut.has(branch) && !mistyped.has(branch));
}

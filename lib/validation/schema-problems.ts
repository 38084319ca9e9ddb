import type { ErrorObject } from 'ajv';

import { firstListed } from '../util/first-listed.js';

/**
 * One problem, worded here from the failing keyword and schema (ajv's messages never reach the wire, and no
 * caller-sent value is quoted); a caller-sent property name is a path segment, so it is bounded like one.
 */
export interface SchemaProblem {
  /** Segments from the validated value's root to the offending value. */
  readonly path: readonly (string | number)[];
  /** One sentence fragment, for example `must be integer`. */
  readonly problem: string;
}

/** The most allowed values a `const`/`enum` problem names; the rest are counted. */
const VALUES_LISTED = 8;

const list = (values: unknown): string =>
  firstListed(Array.isArray(values) ? values : [values], VALUES_LISTED, { spell: (v) => JSON.stringify(v) ?? String(v), counted: true });

type Params = Record<string, unknown>;
type Worded = { extra?: string | number; problem: string };

const bound = (p: Params): Worded => ({ problem: `must be ${String(p.comparison)} ${String(p.limit)}` });
const atLeast =
  (what: string) =>
  (p: Params): Worded => ({ problem: `must have at least ${String(p.limit)} ${what}` });
const atMost =
  (what: string) =>
  (p: Params): Worded => ({ problem: `must have at most ${String(p.limit)} ${what}` });
const dependent = (p: Params): Worded => ({ problem: `must also have ${JSON.stringify(p.missingProperty)} when ${JSON.stringify(p.property)} is present` });
const notAllowed = (p: Params): Worded => ({ extra: String(p.additionalProperty ?? p.unevaluatedProperty), problem: 'is not an allowed property' });

/**
 * How each keyword's failure is worded: the closed list of keywords this library words itself (any other reads
 * `does not satisfy "<keyword>"`). Proven by: test/sweeps/value-gate-keywords.sweep.e2e-spec.ts
 */
export const KEYWORD_WORDINGS = {
  required: (p: Params): Worded => ({ problem: `missing required property ${JSON.stringify(p.missingProperty)}` }),
  additionalProperties: notAllowed,
  unevaluatedProperties: notAllowed,
  type: (p: Params): Worded => ({ problem: `must be ${String(p.type).split(',').join(' or ')}` }),
  const: (p: Params): Worded => ({ problem: `must be ${list([p.allowedValue])}` }),
  enum: (p: Params): Worded => ({ problem: `must be one of ${list(p.allowedValues)}` }),
  format: (p: Params): Worded => ({ problem: `must be a valid ${String(p.format)}` }),
  minimum: bound,
  maximum: bound,
  exclusiveMinimum: bound,
  exclusiveMaximum: bound,
  multipleOf: (p: Params): Worded => ({ problem: `must be a multiple of ${String(p.multipleOf)}` }),
  minLength: atLeast('character(s)'),
  maxLength: atMost('character(s)'),
  minItems: atLeast('item(s)'),
  maxItems: atMost('item(s)'),
  minProperties: atLeast('propert(ies)'),
  maxProperties: atMost('propert(ies)'),
  uniqueItems: (): Worded => ({ problem: 'must not contain duplicate items' }),
  // `items: false` after `prefixItems` (zod's tuple): no item past those.
  items: atMost('item(s)'),
  // As written in the schema: JSON's escaping would double each backslash of a pattern the message quotes.
  pattern: (p: Params): Worded => ({ problem: `must match the pattern "${String(p.pattern)}"` }),
  anyOf: (): Worded => ({ problem: 'must match at least one of the allowed shapes' }),
  oneOf: (): Worded => ({ problem: 'must match exactly one of the allowed shapes' }),
  not: (): Worded => ({ problem: 'must not match the excluded shape' }),
  dependentRequired: dependent,
  dependencies: dependent,
  propertyNames: (p: Params): Worded => ({ extra: String(p.propertyName), problem: 'is not an allowed property name' }),
  contains: (p: Params): Worded => {
    const most = p.maxContains === undefined ? '' : ` and at most ${String(p.maxContains)}`;
    return { problem: `must contain at least ${String(p.minContains ?? 1)}${most} matching item(s)` };
  },
  if: (p: Params): Worded =>
    p.failingKeyword === 'else'
      ? { problem: 'must match the "else" schema (it does not match the "if" schema)' }
      : { problem: 'must match the "then" schema (it matches the "if" schema)' },
  'false schema': (): Worded => ({ problem: 'is not allowed here' }),
} as const satisfies Record<string, (p: Params) => Worded>;

function wordProblem(error: ErrorObject): Worded {
  const word = Object.hasOwn(KEYWORD_WORDINGS, error.keyword) ? KEYWORD_WORDINGS[error.keyword as keyof typeof KEYWORD_WORDINGS] : undefined;
  return word ? word(error.params as Params) : { problem: `does not satisfy "${error.keyword}"` };
}

/** A JSON pointer's segments, unescaped (`~1` is `/`, `~0` is `~`), array indexes as numbers. */
export function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

/** The value at a path of segments (own keys and list indexes only), or undefined. */
export function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  for (const segment of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, String(segment))) return undefined;
    value = (value as Record<string, unknown>)[String(segment)];
  }
  return value;
}

/** Keywords that try subschemas and answer for the outcome themselves: their trials' errors are not offences. */
const TRYING = new Set(['anyOf', 'oneOf', 'contains']);

/** Where an error is, as a JSON pointer: its instance location, then the key `propertyNames` refused when there is one. */
const pointerOf = (error: ErrorObject): string =>
  error.propertyName === undefined ? error.instancePath : `${error.instancePath}/${error.propertyName.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** Whether `pointer` is `at` or a location below it. */
const isAtOrBelow = (pointer: string, at: string): boolean => at === '' || pointer === at || pointer.startsWith(`${at}/`);

/**
 * ajv's errors as a tree: a failing trying keyword owns its trials' errors, the contiguous run ajv pushed just
 * before it at or below its location (schema paths cannot tell, `$ref` moves them). `children` lists by index the
 * errors each keyword owns directly (a nested keyword's own under it), the top level under -1.
 */
interface ErrorTree {
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
interface ErrorsAt {
  readonly tree: ErrorTree;
  readonly members: readonly number[];
}

/** The errors of one level, in ajv's order. */
const errorsIn = ({ tree, members }: ErrorsAt): ErrorObject[] => members.map((member) => tree.errors[member]!);

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
function topLevel(errors: readonly ErrorObject[], facts?: UnionFactsOf): ErrorsAt {
  const tree = errorTree(errors, facts);
  return { tree, members: tree.children.get(-1) ?? [] };
}

/** Whether `pointer` is one property or item below `at`. */
const isChildOf = (pointer: string, at: string): boolean => pointer.startsWith(`${at}/`) && !pointer.includes('/', at.length + 1);

/** A failing `anyOf`/`oneOf`'s trial errors by branch, and which branches its value rules out. */
interface UnionTrials {
  readonly branches: ReadonlyMap<number, ErrorsAt>;
  /** Each ruled-out branch's `const`/`enum` errors: at the union's own place (a literal), or at a discriminator. */
  readonly ruledOut: ReadonlyMap<number, readonly ErrorObject[]>;
  /** The branches whose `type` the value itself is not (an object sent where a branch wants an array, say). */
  readonly mistyped: ReadonlySet<number>;
  /** The branches requiring properties the value does not have, with those properties. */
  readonly incomplete: ReadonlyMap<number, ReadonlySet<string>>;
  /** The JSON types the mistyped branches take, each once, in branch order. */
  readonly wantedTypes: ReadonlySet<string>;
  /** Each mistyped branch's JSON types. */
  readonly branchTypes: ReadonlyMap<number, readonly string[]>;
  /** Errors its run holds before its trials (a counted union's; see {@link FoundUnion.counted}): not its own. */
  readonly extras: ErrorsAt;
}

/**
 * A failed union as the schema has it, for errors its schema paths do not place (ajv reports the errors inside a
 * `$ref`'s target at the target's own paths, which name no branch): how many branches it has, and the errors of
 * each branch that is a `$ref`, the value below the union checked against that branch alone (located from the
 * checked value's root).
 */
export interface FoundUnion {
  readonly branchCount: number;
  readonly refTrials: ReadonlyMap<number, readonly ErrorObject[]>;
  /**
   * Every branch not in `refTrials` holds no reference, so its errors are exactly those at its schema path: the
   * trials' errors can be counted, and what the union's run holds before them is another keyword's.
   */
  readonly counted: boolean;
}

/** Finds a failed union in the schema (see {@link FoundUnion}), or answers undefined where it cannot. */
export type UnionLookup = (union: ErrorObject) => FoundUnion | undefined;

/** What a schema says of one of its unions (`anyOf`/`oneOf`), read once when the schema is compiled. */
export interface UnionFacts {
  /** No branch applies a schema by reference, so every error of its trials is at its schema path or below. */
  readonly exact: boolean;
  /**
   * Its discriminators: the properties every branch that may take an object fixes by `const`/`enum`, each value
   * allowed by one branch at most. Only a problem at one of these rules a branch out.
   */
  readonly discriminators: ReadonlySet<string>;
}

/** The facts of the union ajv reports at a schema path, or undefined where the path names none the schema knows. */
export type UnionFactsOf = (schemaPath: string) => UnionFacts | undefined;

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
function unionTrials(tree: ErrorTree, index: number, lookup?: UnionLookup, facts?: UnionFactsOf): UnionTrials | undefined {
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
  const wantedTypes = new Set<string>();
  const branchTypes = new Map<number, readonly string[]>();
  for (const [branch, errorsAt] of ordered) {
    const verdict = verdictOf(errorsAt, reading);
    if (verdict.ruledOut?.length) ruledOut.set(branch, verdict.ruledOut);
    if (verdict.types) {
      mistyped.add(branch);
      branchTypes.set(branch, verdict.types);
      for (const type of verdict.types) wantedTypes.add(type);
    }
    if (verdict.missing?.size) incomplete.set(branch, verdict.missing);
  }
  return { branches: ordered, ruledOut, mistyped, incomplete, wantedTypes, branchTypes, extras };
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
    if (error.keyword === 'type' && error.instancePath === at) types = String((error.params as { type?: unknown }).type).split(',');
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
function branchesLeft({ branches, ruledOut, mistyped }: UnionTrials): number[] {
  return [...branches.keys()].filter((branch) => !ruledOut.has(branch) && !mistyped.has(branch));
}

/**
 * The errors of the one branch the value can be meant for: every other branch (if any) is ruled out by its
 * discriminator or its JSON type, this one by neither; or, of several left so, the only one whose required
 * properties the value all has.
 */
function pickedBranch(trials: UnionTrials): ErrorsAt | undefined {
  const { branches, incomplete } = trials;
  const left = branchesLeft(trials);
  const complete = left.length > 1 ? left.filter((branch) => !incomplete.has(branch)) : left;
  return complete.length === 1 ? branches.get(complete[0]!) : undefined;
}

/**
 * When every branch is ruled out, those of the value's JSON type at one property (a discriminator no branch admits,
 * such as zod's discriminated union sent an unknown kind): that property's problem, naming the values they admit.
 */
function unknownDiscriminator({ branches, ruledOut, mistyped, branchTypes }: UnionTrials, union: ErrorObject): Described | undefined {
  if (ruledOut.size === 0 || new Set([...ruledOut.keys(), ...mistyped]).size !== branches.size) return undefined;
  const [first, ...others] = [...ruledOut.values()];
  const othersAt = others.map((errors) => new Set(errors.map((e) => e.instancePath)));
  const pointer = first!.map((e) => e.instancePath).find((p) => othersAt.every((at) => at.has(p)));
  if (pointer === undefined) return undefined;
  const admitted = new Map<string, unknown>();
  for (const errors of ruledOut.values())
    for (const error of errors.filter((e) => e.instancePath === pointer)) {
      const params = error.params as { allowedValue?: unknown; allowedValues?: unknown[] };
      for (const value of error.keyword === 'const' ? [params.allowedValue] : (params.allowedValues ?? [])) admitted.set(JSON.stringify(value), value);
    }
  const values = [...admitted.values()];
  const { problem } = values.length === 1 ? KEYWORD_WORDINGS.const({ allowedValue: values[0] }) : KEYWORD_WORDINGS.enum({ allowedValues: values });
  // At the union's own place, the branches of another type that fix no value take a type: named after the values.
  const types = pointer === pointerOf(union) ? [...new Set([...mistyped].filter((branch) => !ruledOut.has(branch)).flatMap((branch) => branchTypes.get(branch) ?? []))] : [];
  return { path: pointerSegments(pointer), problem: types.length ? `${problem}, or ${types.join(' or ')}` : problem, pattern: false };
}

/**
 * When every branch of the value's JSON type that its discriminator does not rule out requires properties the value
 * lacks: those they all require (zod's discriminated union sent no discriminator), else what each would need, as
 * alternatives (`missing required property "id" or "name"`; `…of one of its shapes: ["a", "b"] or ["c"]`; at most
 * {@link VALUES_LISTED} of them).
 */
function branchesMissing(trials: UnionTrials, union: ErrorObject): Described | undefined {
  const { incomplete } = trials;
  // A branch its discriminator rules out asks for another value, not for a property.
  const typed = branchesLeft(trials);
  if (typed.length === 0 || union.propertyName !== undefined || !typed.every((branch) => incomplete.has(branch))) return undefined;
  const missing = typed.map((branch) => [...incomplete.get(branch)!]);
  const common = missing[0]!.filter((name) => missing.every((names) => names.includes(name)));
  const at = pointerSegments(union.instancePath);
  if (common.length > 0) return missingProblem(at, common);
  const single = missing.every((names) => names.length === 1);
  const alternatives = [...new Set(missing.map((names) => (single ? JSON.stringify(names[0]) : `[${names.map((name) => JSON.stringify(name)).join(', ')}]`)))];
  if (alternatives.length > VALUES_LISTED) return undefined;
  const problem = single ? `missing required property ${alternatives.join(' or ')}` : `missing the required properties of one of its shapes: ${alternatives.join(' or ')}`;
  return { path: at, problem, pattern: false, alternatives: [problem] };
}

/**
 * When every branch of the value's JSON type that its discriminator does not rule out fails only by the `type` of one
 * and the same value below it (zod's union of objects whose field differs in type): that value's problem, naming the
 * types the branches take there (`id: must be string or number`).
 */
function typesApart(trials: UnionTrials): Described | undefined {
  const left = branchesLeft(trials);
  if (left.length < 2) return undefined;
  let pointer: string | undefined;
  const types = new Set<string>();
  for (const branch of left) {
    for (const error of errorsIn(trials.branches.get(branch)!)) {
      if (error.keyword !== 'type' || error.propertyName !== undefined || (pointer ?? error.instancePath) !== error.instancePath) return undefined;
      pointer = error.instancePath;
      for (const type of String((error.params as { type?: unknown }).type).split(',')) types.add(type);
    }
  }
  return pointer === undefined ? undefined : { path: pointerSegments(pointer), problem: KEYWORD_WORDINGS.type({ type: [...types].join(',') }).problem, pattern: false };
}

/** Keywords that refuse a property the object's schema does not take. */
const REFUSING = new Set(['additionalProperties', 'unevaluatedProperties']);

/**
 * When every branch of the value's JSON type that its discriminator does not rule out fails only by refusing
 * properties the value has (strict objects sent the properties of several): those every such branch refuses, each
 * not an allowed property; and unless dropping those alone leaves a branch matched, each other refused property as
 * one that belongs to another shape than a property beside it. Names stay path segments: the caller sent them.
 */
function mixedShapes(trials: UnionTrials, union: ErrorObject): Described[] | undefined {
  const left = branchesLeft(trials);
  if (left.length < 2 || union.propertyName !== undefined) return undefined;
  const refused: (readonly string[])[] = [];
  for (const branch of left) {
    const errors = errorsIn(trials.branches.get(branch)!);
    if (errors.length === 0 || !errors.every((e) => REFUSING.has(e.keyword) && e.instancePath === union.instancePath && e.propertyName === undefined)) return undefined;
    refused.push(errors.map((e) => String(notAllowed(e.params as Params).extra)));
  }
  const at = pointerSegments(union.instancePath);
  const everywhere = refused[0]!.filter((name) => refused.every((names) => names.includes(name)));
  const rest = refused.map((names) => names.filter((name) => !everywhere.includes(name)));
  const mixed = rest.some((names) => names.length === 0) ? [] : [...new Set(rest.flat())];
  return [
    ...everywhere.map((name) => ({ path: [...at, name], problem: notAllowed({}).problem, pattern: false })),
    ...mixed.map((name) => ({ path: [...at, name], problem: MIXED_SHAPES, pattern: false })),
  ];
}

/** The problem of a property one allowed shape of a union takes, sent beside another shape's. */
const MIXED_SHAPES = "belongs to another allowed shape than a property sent beside it; send one shape's properties only";

/** The problem of an object missing the required properties `names`: one, or several listed as one problem. */
function missingWording(names: readonly string[]): string {
  return names.length === 1 ? KEYWORD_WORDINGS.required({ missingProperty: names[0] }).problem : `missing required properties ${list(names)}`;
}

/** {@link missingWording} at `path`, its names kept so that another such problem there can join it. */
function missingProblem(path: readonly (string | number)[], names: readonly string[]): Described {
  return { path, problem: missingWording(names), pattern: false, missing: names };
}

/**
 * One missing-properties problem per location: a union's (its picked branch's, what its branches all miss, or what
 * each would need) and a `required` beside it join the first of them, so a message showing a location's first
 * problem names them all (`missing required property "kind"; also missing required property "id" or "url"`).
 */
function joinMissing(problems: readonly Described[]): Described[] {
  const first = new Map<string, number>();
  const joined: Described[] = [];
  for (const problem of problems) {
    const key = JSON.stringify(problem.path);
    const missing = problem.missing !== undefined || problem.alternatives !== undefined;
    const at = missing ? first.get(key) : undefined;
    if (at === undefined) {
      if (missing) first.set(key, joined.length);
      joined.push(problem);
      continue;
    }
    const names = [...new Set([...(joined[at]!.missing ?? []), ...(problem.missing ?? [])])];
    const alternatives = [...new Set([...(joined[at]!.alternatives ?? []), ...(problem.alternatives ?? [])])];
    const wording = [...(names.length ? [missingWording(names)] : []), ...alternatives].join('; also ');
    joined[at] = { path: problem.path, problem: wording, pattern: false, missing: names, alternatives };
  }
  return joined;
}

/** When the value is of no branch's JSON type: the types they take (`must be string or integer`). */
function noBranchType({ branches, mistyped, wantedTypes }: UnionTrials, union: ErrorObject): Described | undefined {
  if (mistyped.size === 0 || mistyped.size !== branches.size || union.propertyName !== undefined) return undefined;
  return { path: pointerSegments(union.instancePath), problem: KEYWORD_WORDINGS.type({ type: [...wantedTypes].join(',') }).problem, pattern: false };
}

/**
 * Turns ajv's errors into problems, in ajv's order without duplicates, except that a location's `pattern` problem
 * comes after its others: beside a format (zod writes both) the format says it in words, and a refusal's message
 * shows a location's first problem. A failing `anyOf`/`oneOf`/`contains` stands for its trials (one line per
 * location, not per branch), unless its value picks one branch (its discriminator or JSON type rules out every
 * other, or it is the only one left whose required properties the value has), whose problems then stand for it; or
 * its discriminator is admitted by none, its JSON type is no branch's, or every branch left misses properties, whose
 * problem (what the branches admit, or need) then does; or every branch left fails only by the type of one value
 * below it, whose problem names their types; or every branch left only refuses properties the value has, each of
 * which is then named. Keywords beside it keep theirs, so every offence counts. `lookup` places the errors
 * ajv's schema paths do not (those of branches that are or hold a `$ref`, and of a recursion's inner levels); `facts`
 * tell an exact union's trials from what precedes them and name its discriminators; `firstOnly` says each branch
 * reported its first problem only.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined, lookup?: UnionLookup, facts?: UnionFactsOf, firstOnly = false): SchemaProblem[] {
  if (!errors?.length) return [];
  const described = describeInOrder(topLevel(errors, facts), { lookup, facts, firstOnly });
  if (!described.some((d) => d.pattern)) return described.map(({ path, problem }) => ({ path, problem }));
  // Grouped by location, in the order locations first appear; in each, the pattern problems last.
  const byLocation = new Map<string, Described[]>();
  for (const d of described) {
    const key = JSON.stringify(d.path);
    const group = byLocation.get(key) ?? [];
    group.push(d);
    byLocation.set(key, group);
  }
  return [...byLocation.values()].flatMap((group) => [...group.filter((d) => !d.pattern), ...group.filter((d) => d.pattern)]).map(({ path, problem }) => ({ path, problem }));
}

/**
 * A problem, marked when its keyword is `pattern`; a missing-properties one with the names it lists, or the
 * alternatives wordings it holds (what one of a union's branches would need).
 */
type Described = SchemaProblem & { readonly pattern: boolean; readonly missing?: readonly string[]; readonly alternatives?: readonly string[] };

/** How one list of errors is read: its unions' lookup and facts, and whether it came from a first-only check. */
interface Reading {
  readonly lookup: UnionLookup | undefined;
  readonly facts: UnionFactsOf | undefined;
  readonly firstOnly: boolean;
}

/** The problems of one level's errors in ajv's order (see {@link describeSchemaErrors}), `pattern` ones marked. */
function describeInOrder(level: ErrorsAt, reading: Reading, inBranch = false): Described[] {
  const { tree, members } = level;
  const { lookup, facts } = reading;
  const errors = errorsIn(level);
  // A key `propertyNames` refuses: ajv reports the failing keyword (located at the object, the key beside it)
  // and then `propertyNames` itself; the first is worded at the key, the second is then redundant.
  const namedKeys = new Set(errors.filter((e) => e.propertyName !== undefined).map((e) => JSON.stringify([e.instancePath, e.propertyName])));
  // A location's missing properties are one problem: a message that shows a location's first problem names them all.
  const missingAt = new Map<string, string[]>();
  for (const error of errors)
    if (error.keyword === 'required' && error.propertyName === undefined) {
      const names = missingAt.get(error.instancePath);
      const name = String((error.params as { missingProperty?: unknown }).missingProperty);
      if (names) names.push(name);
      else missingAt.set(error.instancePath, [name]);
    }
  const seen = new Set<string>();
  const problems: Described[] = [];
  const keep = (described: readonly Described[]): void => {
    for (const problem of described) {
      const key = JSON.stringify([problem.path, problem.problem]);
      if (!seen.has(key)) problems.push(problem);
      seen.add(key);
    }
  };
  for (const [position, error] of errors.entries()) {
    const tried = TRYING.has(error.keyword) ? unionTrials(tree, members[position]!, lookup, facts) : undefined;
    // What ajv evaluated before the union, beside it: worded as this level's own, before the union's. Within a branch
    // of another union, what precedes its trials may be that union's other branches': the union stands for them.
    const trials = inBranch && tried?.extras.members.length ? undefined : tried;
    if (trials?.extras.members.length) keep(describeInOrder(trials.extras, reading));
    const picked = trials && pickedBranch(trials);
    const unknown =
      trials && !picked ? (unknownDiscriminator(trials, error) ?? noBranchType(trials, error) ?? branchesMissing(trials, error) ?? typesApart(trials)) : undefined;
    // A first-only check's branches each stop at their first problem: what each refuses is not known whole.
    const mixed = trials && !picked && !unknown && !reading.firstOnly ? mixedShapes(trials, error) : undefined;
    const standIns = picked ? describeInOrder(picked, reading, true) : unknown ? [unknown] : mixed;
    if (standIns) {
      keep(standIns);
      continue;
    }
    const path = pointerSegments(error.instancePath);
    if (error.keyword === 'propertyNames' && namedKeys.has(JSON.stringify([error.instancePath, (error.params as { propertyName?: unknown }).propertyName]))) continue;
    if (error.keyword === 'required' && error.propertyName === undefined) {
      // Worded once, with the location's first: the others are in it.
      const missing = missingAt.get(error.instancePath);
      if (!missing) continue;
      missingAt.delete(error.instancePath);
      problems.push(missingProblem(path, [...new Set(missing)]));
      continue;
    }
    const worded = wordProblem(error);
    const { extra, problem } = error.propertyName === undefined ? worded : { extra: error.propertyName, problem: `its name ${worded.problem}` };
    const fullPath = extra === undefined ? path : [...path, extra];
    const key = JSON.stringify([fullPath, problem]);
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ path: fullPath, problem, pattern: error.keyword === 'pattern' });
  }
  return joinMissing(problems);
}

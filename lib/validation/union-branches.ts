import type { ErrorObject, ValidateFunction } from 'ajv';

import { isPlainObject } from '../util/is-plain-object.js';
import { escapedSegment, pointerSegments, valueAt } from '../util/json-pointer.js';
import { resolveLocalRef, type SchemaDocument } from './local-ref.js';
import { ALSO_APPLIED, SCHEMA_APPLICATORS, firstSubschemaWhere, someSubschema } from './schema-applicators.js';

/** Where a check starts: one of the document's `$defs` (as ajv compiles `#/$defs/Name`), or the document itself. */
export type CheckRoot = string | undefined;

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

/** The most failed unions one check looks up in the schema (each walks it, and may check the value below again). */
const UNION_LOOKUPS = 8;

const UNIONS = ['anyOf', 'oneOf'] as const;

/** Keywords that only annotate: a branch of a `$ref` and these checks a value as the schema the `$ref` names does. */
const ANNOTATIONS = new Set(['$ref', '$comment', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/** Whether a schema is a `$ref` and annotations only: ajv checks a value against it as against what the `$ref` names. */
function isBareRef(node: unknown): node is { $ref: string } {
  return isPlainObject(node) && typeof node.$ref === 'string' && Object.keys(node).every((key) => ANNOTATIONS.has(key));
}

/** The local `$ref` a union branch checks a value against (the branch is that `$ref`, perhaps annotated), else undefined. */
function branchRef(document: SchemaDocument, branch: unknown): string | undefined {
  return isBareRef(branch) && resolveLocalRef(document, branch.$ref) ? branch.$ref : undefined;
}

/**
 * Where ajv's resolution of a reference to `target` ends: through each bare `$ref` ({@link isBareRef}) to the schema
 * the last names (what ajv checks there, spelling its schema paths from the first reference's pointer).
 */
function chainEnd(document: SchemaDocument, target: Record<string, unknown>): Record<string, unknown> {
  const passed = new Set<unknown>([target]);
  let end = target;
  while (isBareRef(end)) {
    const next = resolveLocalRef(document, end.$ref);
    if (!next || passed.has(next)) break;
    passed.add(next);
    end = next;
  }
  return end;
}

/** Keywords that apply another schema by reference: the errors of what they apply leave the schema path they are at. */
const REFERENCES = ['$ref', '$dynamicRef', '$recursiveRef'];

/** What {@link holdsReference} answered of each schema object, walked once (a lookup asks again on each refusal). */
const heldReferences = new WeakMap<object, boolean>();

/** Whether a schema object, or any below it (references not followed), applies another schema by reference. */
function holdsReference(node: unknown): boolean {
  if (!isPlainObject(node)) return false;
  let holds = heldReferences.get(node);
  if (holds === undefined) {
    holds = firstSubschemaWhere(node, (sub) => REFERENCES.some((keyword) => Object.hasOwn(sub, keyword))) !== undefined;
    heldReferences.set(node, holds);
  }
  return holds;
}

/**
 * How a failed union's branch is checked on its own, given the document pointer `at` of the branch: the local `$ref`
 * it is (perhaps annotated), or, when `holders` are checked, for one written in place that holds a reference (whose
 * errors leave its schema path) `at` itself; else undefined, where its schema paths or their order place its errors.
 */
function branchCheck(document: SchemaDocument, branch: unknown, at: string, holders: boolean): string | undefined {
  return branchRef(document, branch) ?? (holders && holdsReference(branch) ? at : undefined);
}

/** The `$defs` name a `#/$defs/Name` reference names, else undefined. */
export function definitionName(ref: string): string | undefined {
  return /^#\/\$defs\/([^/~%]+)$/.exec(ref)?.[1];
}

/** A schema path segment as ajv spells it (a JSON pointer segment, percent-encoded). */
const segment = (s: string | number): string => (typeof s === 'number' ? String(s) : encodeURIComponent(escapedSegment(s)));

/**
 * A schema object of a document, with where it is: `base`, the pointer of the schema a `$ref` led to (as the `$ref`
 * spells it; empty for the check's root document), and its path below that, as ajv spells schema paths.
 */
interface Located {
  readonly node: Record<string, unknown>;
  readonly base: string;
  readonly path: string;
  /**
   * Its paths from each union branch above it written in place that holds a reference: a union lookup checks such a
   * branch on its own, where ajv's schema paths start again at `#`.
   */
  readonly restarts: readonly string[];
}

/** Where a check from `root` starts. */
function rootOf(document: SchemaDocument, root: CheckRoot): Located | undefined {
  const base = root === undefined ? '' : `/$defs/${segment(root)}`;
  const node = resolveLocalRef(document, `#${base}`);
  return node && { node, base, path: '', restarts: [] };
}

/** `located` with the schemas it applies in place added: those its `$ref`s, `allOf`s and union branches name. */
function applied(document: SchemaDocument, located: readonly Located[]): Located[] {
  const out: Located[] = [];
  const seen = new Set<Record<string, unknown>>();
  const queue = [...located];
  while (queue.length) {
    const at = queue.pop()!;
    if (seen.has(at.node)) continue;
    seen.add(at.node);
    out.push(at);
    const target = typeof at.node.$ref === 'string' ? resolveLocalRef(document, at.node.$ref) : undefined;
    if (target) queue.push({ node: target, base: (at.node.$ref as string).slice(1), path: '', restarts: [] });
    for (const keyword of ['allOf', ...UNIONS]) {
      const list = at.node[keyword];
      if (!Array.isArray(list)) continue;
      list.forEach((node: unknown, i) => {
        if (!isPlainObject(node)) return;
        const step = `/${keyword}/${i}`;
        const restarts = at.restarts.map((restart) => `${restart}${step}`);
        const holder = keyword !== 'allOf' && branchRef(document, node) === undefined && holdsReference(node);
        queue.push({ node, base: at.base, path: `${at.path}${step}`, restarts: holder ? [...restarts, ''] : restarts });
      });
    }
  }
  return out;
}

/** The `patternProperties` patterns met so far, compiled as ajv compiles them (null: one ajv could not compile). */
const patterns = new Map<string, RegExp | null>();

/** A schema's property pattern as a regular expression, compiled once. */
function patternOf(pattern: string): RegExp | null {
  let compiled = patterns.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(pattern, 'u');
    } catch {
      compiled = null;
    }
    patterns.set(pattern, compiled);
  }
  return compiled;
}

/**
 * The schemas below `at` that apply to its value's property or item `key`. A key of digits may name either, as
 * the instance path does not say which the value holds; schema paths tell the two apart afterwards.
 */
function below(at: Located, key: string | number): Located[] {
  const step = (keyword: string, ...rest: string[]): Located[] => {
    let node: unknown = at.node[keyword];
    for (const s of rest) node = (isPlainObject(node) || Array.isArray(node)) && Object.hasOwn(node, s) ? (node as Record<string, unknown>)[s] : undefined;
    const down = ['', keyword, ...rest.map(segment)].join('/');
    return isPlainObject(node) ? [{ node, base: at.base, path: `${at.path}${down}`, restarts: at.restarts.map((restart) => `${restart}${down}`) }] : [];
  };
  const name = String(key);
  const properties = at.node.properties;
  const patterns = isPlainObject(at.node.patternProperties) ? Object.keys(at.node.patternProperties).filter((pattern) => patternOf(pattern)?.test(name)) : [];
  const declared = isPlainObject(properties) && Object.hasOwn(properties, name) ? step('properties', name) : [];
  const property = [...declared, ...patterns.flatMap((pattern) => step('patternProperties', pattern))];
  if (property.length === 0) property.push(...step('additionalProperties'));
  return typeof key === 'number' ? [...step('prefixItems', name), ...step('items'), ...property] : property;
}

/**
 * The branches of the union ajv reported at `schemaPath` for the value at `instancePath` of a value checked from
 * `root`: per branch, what it is checked against on its own ({@link branchCheck}, `holders` too), or undefined where
 * its errors are placed otherwise. Undefined when no union there matches, or when two there match the path with
 * different branches.
 */
export function unionBranchesAt(
  document: SchemaDocument,
  root: CheckRoot,
  instancePath: readonly (string | number)[],
  union: { readonly keyword: string; readonly schemaPath: string },
  holders = false,
): readonly (string | undefined)[] | undefined {
  const start = rootOf(document, root);
  if (!start) return undefined;
  let located = applied(document, [start]);
  for (const key of instancePath)
    located = applied(
      document,
      located.flatMap((at) => below(at, key)),
    );
  const found = new Set<string>();
  for (const { node, base, path, restarts } of located) {
    const list = node[union.keyword];
    // ajv reports a union reached through a `$ref` at its path from the `$ref`'s target, or, where it inlined the
    // target's code, from the document with the `$ref`'s pointer before it; checked within a branch on its own, from
    // that branch.
    const within = `${path}/${union.keyword}`;
    const spellings = [`#${within}`, `#${base}${within}`, ...restarts.map((restart) => `#${restart}/${union.keyword}`)];
    if (!Array.isArray(list) || !spellings.includes(union.schemaPath)) continue;
    found.add(JSON.stringify(list.map((branch, i) => branchCheck(document, branch, `#${base}${within}/${i}`, holders) ?? null)));
  }
  if (found.size !== 1) return undefined;
  return (JSON.parse([...found][0]!) as (string | null)[]).map((ref) => ref ?? undefined);
}

/**
 * What the unions reachable from `from` (through `$ref`s) ask of a failed check: `branchRefs`, the local `$ref`s
 * their branches are (what a failed union is checked against branch by branch, so what is compiled beside it), and
 * `lookedUp`, whether a union's errors may leave ajv's schema paths (a union and a `$ref` are both reachable) and the
 * lookup can follow them: not where a subschema declares its own `$id`, against which its `$ref`s resolve.
 */
export function unionRefs(document: SchemaDocument, from: readonly CheckRoot[]): { branchRefs: string[]; lookedUp: boolean } {
  const seen = new Set<unknown>();
  const branchRefs = new Set<string>();
  let unions = false;
  let refs = false;
  let scoped = false;
  const queue = from.map((root) => rootOf(document, root)?.node);
  while (queue.length) {
    const node = queue.pop();
    if (seen.has(node) || !isPlainObject(node)) continue;
    seen.add(node);
    // Every schema object below `node` (no match ends the walk; `$ref`s are followed through the queue).
    firstSubschemaWhere(node, (sub) => {
      scoped ||= sub !== document && Object.hasOwn(sub, '$id');
      const target = typeof sub.$ref === 'string' ? resolveLocalRef(document, sub.$ref) : undefined;
      if (target) queue.push(target);
      refs ||= target !== undefined;
      for (const keyword of UNIONS) {
        const list = sub[keyword];
        if (!Array.isArray(list)) continue;
        unions = true;
        for (const ref of list.map((branch) => branchRef(document, branch))) if (ref !== undefined) branchRefs.add(ref);
      }
      return false;
    });
  }
  return { branchRefs: [...branchRefs].sort(), lookedUp: unions && refs && !scoped };
}

/**
 * The {@link UnionLookup} of one failed check of `value` from `root`: a failed union found in the schema, with
 * the value below it checked by `validatorOf` against each of its `$ref` branches and, with `holders`, each branch
 * holding a reference (compiled beforehand; undefined where there is none, which leaves the union unplaced), for
 * at most {@link UNION_LOOKUPS} unions.
 */
export function unionLookup(
  document: SchemaDocument,
  root: CheckRoot,
  value: unknown,
  validatorOf: (ref: string) => ValidateFunction | undefined,
  holders = false,
): UnionLookup {
  let left = UNION_LOOKUPS;
  return (union) => {
    if (left === 0) return undefined;
    left--;
    const at = pointerSegments(union.instancePath);
    const branches = unionBranchesAt(document, root, at, union, holders);
    if (!branches) return undefined;
    const below = valueAt(value, at);
    const refTrials = new Map<number, ErrorObject[]>();
    for (const [branch, ref] of branches.entries()) {
      if (ref === undefined) continue;
      const check = validatorOf(ref);
      if (!check || check(below)) return undefined;
      refTrials.set(
        branch,
        (check.errors ?? []).map((error) => ({ ...error, instancePath: `${union.instancePath}${error.instancePath}` })),
      );
    }
    return { branchCount: branches.length, refTrials, counted: holders };
  };
}

/**
 * Calls `visit` on `node` and on each schema object below it (draft-07 `dependencies` included, references not
 * followed), with its path from `node` as ajv spells schema paths.
 */
function eachSchemaObject(node: unknown, path: string, visit: (node: Record<string, unknown>, path: string) => void): void {
  if (!isPlainObject(node)) return;
  visit(node, path);
  for (const [keyword, value] of Object.entries(node)) {
    const kind = SCHEMA_APPLICATORS.get(keyword) ?? ALSO_APPLIED.get(keyword);
    if (kind === undefined) continue;
    someSubschema(kind, value, (sub, key) => {
      eachSchemaObject(sub, key === undefined ? `${path}/${keyword}` : `${path}/${keyword}/${segment(key)}`, visit);
      return undefined;
    });
  }
}

/** Whether a branch may take an object: its `type` (or, without one, its `$ref`'s) allows one, or it names none. */
function takesObjects(document: SchemaDocument, branch: unknown, seen = new Set<unknown>()): boolean {
  if (!isPlainObject(branch)) return branch !== false;
  if (seen.has(branch)) return true;
  seen.add(branch);
  const { type } = branch;
  if (typeof type === 'string') return type === 'object';
  if (Array.isArray(type)) return type.includes('object');
  const target = typeof branch.$ref === 'string' ? resolveLocalRef(document, branch.$ref) : undefined;
  return target === undefined || takesObjects(document, target, seen);
}

/**
 * The properties a branch fixes by `const` or `enum` (in its `properties`, its `allOf` members' and its `$ref`'s, or,
 * for a union, in every branch of it), each with the values it allows as JSON text (the first place that fixes it).
 */
function fixedProperties(document: SchemaDocument, branch: unknown, fixed = new Map<string, Set<string>>(), seen = new Set<unknown>()): Map<string, Set<string>> {
  if (!isPlainObject(branch) || seen.has(branch)) return fixed;
  seen.add(branch);
  // A union as a branch fixes what each of its branches that may take an object fixes, to any of their values.
  const inner = innerUnion(document, branch)?.filter((sub) => takesObjects(document, sub));
  if (inner?.length) {
    const each = inner.map((sub) => fixedProperties(document, sub, new Map(), new Set(seen)));
    for (const name of each[0]!.keys())
      if (!fixed.has(name) && each.every((properties) => properties.has(name))) fixed.set(name, new Set(each.flatMap((properties) => [...properties.get(name)!])));
    return fixed;
  }
  const { properties } = branch;
  if (isPlainObject(properties))
    for (const [name, property] of Object.entries(properties)) {
      if (fixed.has(name) || !isPlainObject(property)) continue;
      const allowed = Object.hasOwn(property, 'const') ? [property.const] : Array.isArray(property.enum) ? property.enum : undefined;
      if (allowed) fixed.set(name, new Set(allowed.map((value) => JSON.stringify(value))));
    }
  const target = typeof branch.$ref === 'string' ? resolveLocalRef(document, branch.$ref) : undefined;
  for (const member of [target, ...(Array.isArray(branch.allOf) ? branch.allOf : [])]) fixedProperties(document, member, fixed, seen);
  return fixed;
}

/**
 * The branches of the union a branch is, when it is only that (a `type`, annotations or a `$ref` to it aside: zod's
 * nested or nullable discriminated union), else undefined.
 */
function innerUnion(document: SchemaDocument, branch: unknown): unknown[] | undefined {
  const ref = branchRef(document, branch);
  const node = ref === undefined ? branch : resolveLocalRef(document, ref);
  if (!isPlainObject(node)) return undefined;
  const asserting = Object.keys(node).filter((key) => key !== 'type' && (key === '$ref' || !ANNOTATIONS.has(key)));
  const list = asserting.length === 1 && UNIONS.some((union) => union === asserting[0]) ? node[asserting[0]!] : undefined;
  return Array.isArray(list) ? list : undefined;
}

/** The facts of a union whose branches are `branches` (see {@link UnionFacts}). */
function factsOfUnion(document: SchemaDocument, branches: readonly unknown[]): UnionFacts {
  const fixed = branches.filter((branch) => takesObjects(document, branch)).map((branch) => fixedProperties(document, branch));
  const discriminators = new Set<string>();
  for (const name of fixed[0]?.keys() ?? []) {
    const allowed = fixed.map((properties) => properties.get(name));
    // Disjoint: a value it allows names one branch at most (an enum every branch shares is a field, not a choice).
    const values = allowed.flatMap((set) => (set ? [...set] : []));
    if (allowed.every((set) => set !== undefined) && new Set(values).size === values.length) discriminators.add(name);
  }
  return { exact: !branches.some(holdsReference), discriminators };
}

/** Two facts read at one schema path (two unions ajv may report there): only what holds of both. */
const commonFacts = (a: UnionFacts, b: UnionFacts): UnionFacts => ({
  exact: a.exact && b.exact,
  discriminators: new Set([...a.discriminators].filter((name) => b.discriminators.has(name))),
});

/**
 * The {@link UnionFactsOf} of a document whose checks start at `roots` (the document itself, or `$defs` entries),
 * built once: each union's facts under every schema path ajv may report it at. That is its path from the document
 * (as an inlined reference spells it; at the end of a chain of bare `$ref`s, from the first one's pointer, see
 * {@link chainEnd}), and its path from each schema compiled into a function of its own, where
 * paths start again at `#`: the roots, the targets of references that hold a reference themselves (which ajv does
 * not inline), and `apart`, what a union lookup checks on its own (local `$ref`s and document pointers). Facts read
 * at one path by two unions are reduced to what holds of both. Undefined for a document without unions.
 */
export function unionFactsOf(document: SchemaDocument, roots: readonly CheckRoot[], apart: readonly string[] = []): UnionFactsOf | undefined {
  const starts = new Set<Record<string, unknown>>();
  // Where a reference's target is a chain of bare `$ref`s, the schema at its end by the first reference's pointer.
  const chains: [Record<string, unknown>, string][] = [];
  eachSchemaObject(document, '', (node) => {
    const target = typeof node.$ref === 'string' ? resolveLocalRef(document, node.$ref) : undefined;
    if (target && holdsReference(target)) starts.add(target);
    const end = target && chainEnd(document, target);
    if (end && end !== target) chains.push([end, (node.$ref as string).slice(1)]);
  });
  for (const root of roots) starts.add(rootOf(document, root)!.node);
  for (const pointer of apart) {
    const node = resolveLocalRef(document, pointer);
    if (node) starts.add(node);
  }
  const byPath = new Map<string, UnionFacts>();
  const facts = new Map<unknown, UnionFacts>();
  const record = (node: Record<string, unknown>, path: string): void => {
    for (const keyword of UNIONS) {
      const list = node[keyword];
      if (!Array.isArray(list)) continue;
      const own = facts.get(list) ?? factsOfUnion(document, list);
      facts.set(list, own);
      const at = `#${path}/${keyword}`;
      const known = byPath.get(at);
      byPath.set(at, known ? commonFacts(known, own) : own);
    }
  };
  eachSchemaObject(document, '', record);
  for (const start of starts) if (start !== document) eachSchemaObject(start, '', record);
  for (const [end, base] of chains) eachSchemaObject(end, base, record);
  return facts.size === 0 ? undefined : (schemaPath) => byPath.get(schemaPath);
}

/**
 * The document pointers of the union branches written in place that hold a reference (see {@link branchCheck}):
 * what is compiled beside a schema so that a failed union can check them on their own.
 */
export function referenceHoldingBranches(document: SchemaDocument): string[] {
  const pointers: string[] = [];
  eachSchemaObject(document, '', (node, path) => {
    for (const keyword of UNIONS) {
      const list = node[keyword];
      if (!Array.isArray(list)) continue;
      list.forEach((branch, i) => {
        if (branchRef(document, branch) === undefined && holdsReference(branch)) pointers.push(`#${path}/${keyword}/${i}`);
      });
    }
  });
  return pointers;
}

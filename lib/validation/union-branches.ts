import type { ErrorObject, ValidateFunction } from 'ajv';

import { isPlainObject } from '../util/is-plain-object.js';
import { firstSubschemaWhere } from './schema-applicators.js';
import { pointerSegments, valueAt, type UnionLookup } from './schema-problems.js';

/**
 * A schema document: what its local `$ref`s (`#`, then a JSON pointer: `#/$defs/Name`, `#/definitions/Name`,
 * `#/properties/shape`) resolve in. The protocol's document, or a tool's schema.
 */
export type SchemaDocument = object;

/** Where a check starts: one of the document's `$defs` (as ajv compiles `#/$defs/Name`), or the document itself. */
export type CheckRoot = string | undefined;

/** The most failed unions one check looks up in the schema (each walks it, and may check the value below again). */
const UNION_LOOKUPS = 8;

const UNIONS = ['anyOf', 'oneOf'] as const;

/** Keywords that only annotate: a branch of a `$ref` and these checks a value as the schema the `$ref` names does. */
const ANNOTATIONS = new Set(['$ref', '$comment', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/** The schema object a local `$ref` names in `document` (`#` and a JSON pointer, percent-encoded as in a URI). */
export function resolveLocalRef(document: SchemaDocument, ref: string): Record<string, unknown> | undefined {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let keys: string[];
  try {
    // Each segment percent-decoded first: an escaped `/` (`%2F`) stays within its segment.
    keys =
      ref === '#'
        ? []
        : ref
            .slice(2)
            .split('/')
            .map((raw) => decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return undefined;
  }
  const node = valueAt(document, keys);
  return isPlainObject(node) ? node : undefined;
}

/** The local `$ref` a union branch checks a value against (the branch is that `$ref`, perhaps annotated), else undefined. */
function branchRef(document: SchemaDocument, branch: unknown): string | undefined {
  if (!isPlainObject(branch) || typeof branch.$ref !== 'string' || !Object.keys(branch).every((key) => ANNOTATIONS.has(key))) return undefined;
  return resolveLocalRef(document, branch.$ref) ? branch.$ref : undefined;
}

/** The `$defs` name a `#/$defs/Name` reference names, else undefined. */
export function definitionName(ref: string): string | undefined {
  return /^#\/\$defs\/([^/~%]+)$/.exec(ref)?.[1];
}

/** A schema path segment as ajv spells it (a JSON pointer segment, percent-encoded). */
const segment = (s: string | number): string => (typeof s === 'number' ? String(s) : encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1')));

/**
 * A schema object of a document, with where it is: `base`, the pointer of the schema a `$ref` led to (as the `$ref`
 * spells it; empty for the check's root document), and its path below that, as ajv spells schema paths.
 */
interface Located {
  readonly node: Record<string, unknown>;
  readonly base: string;
  readonly path: string;
}

/** Where a check from `root` starts. */
function rootOf(document: SchemaDocument, root: CheckRoot): Located | undefined {
  const base = root === undefined ? '' : `/$defs/${segment(root)}`;
  const node = resolveLocalRef(document, `#${base}`);
  return node && { node, base, path: '' };
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
    if (target) queue.push({ node: target, base: (at.node.$ref as string).slice(1), path: '' });
    for (const keyword of ['allOf', ...UNIONS]) {
      const list = at.node[keyword];
      if (Array.isArray(list)) list.forEach((node: unknown, i) => isPlainObject(node) && queue.push({ node, base: at.base, path: `${at.path}/${keyword}/${i}` }));
    }
  }
  return out;
}

/**
 * The schemas below `at` that apply to its value's property or item `key`. A key of digits may name either, as
 * the instance path does not say which the value holds; schema paths tell the two apart afterwards.
 */
function below(at: Located, key: string | number): Located[] {
  const step = (keyword: string, ...rest: string[]): Located[] => {
    let node: unknown = at.node[keyword];
    for (const s of rest) node = isPlainObject(node) && Object.hasOwn(node, s) ? node[s] : undefined;
    return isPlainObject(node) ? [{ node, base: at.base, path: [at.path, keyword, ...rest.map(segment)].join('/') }] : [];
  };
  const name = String(key);
  const properties = at.node.properties;
  const property = isPlainObject(properties) && Object.hasOwn(properties, name) ? step('properties', name) : step('additionalProperties');
  return typeof key === 'number' ? [...step('items'), ...property] : property;
}

/**
 * The branches of the union ajv reported at `schemaPath` for the value at `instancePath` of a value checked from
 * `root`: per branch, the local `$ref` it checks against, or undefined for one written otherwise. Undefined when no
 * union there matches, or when two there match the path with different branches.
 */
export function unionBranchesAt(
  document: SchemaDocument,
  root: CheckRoot,
  instancePath: readonly (string | number)[],
  union: { readonly keyword: string; readonly schemaPath: string },
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
  for (const { node, base, path } of located) {
    const list = node[union.keyword];
    // ajv reports a union reached through a `$ref` at its path from the `$ref`'s target, or, where it inlined the
    // target's code, from the document with the `$ref`'s pointer before it.
    const within = `${path}/${union.keyword}`;
    if (!Array.isArray(list) || (union.schemaPath !== `#${within}` && union.schemaPath !== `#${base}${within}`)) continue;
    found.add(JSON.stringify(list.map((branch) => branchRef(document, branch) ?? null)));
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
 * the value below it checked against each of its `$ref` branches by `validatorOf` (compiled beforehand; undefined
 * where there is none, which leaves the union unplaced), for at most {@link UNION_LOOKUPS} unions.
 */
export function unionLookup(document: SchemaDocument, root: CheckRoot, value: unknown, validatorOf: (ref: string) => ValidateFunction | undefined): UnionLookup {
  let left = UNION_LOOKUPS;
  return (union) => {
    if (left === 0) return undefined;
    left--;
    const at = pointerSegments(union.instancePath);
    const branches = unionBranchesAt(document, root, at, union);
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
    return { branchCount: branches.length, refTrials };
  };
}

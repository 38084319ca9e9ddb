import type { ErrorObject, ValidateFunction } from 'ajv';

import { isPlainObject } from '../util/is-plain-object.js';
import { firstSubschemaWhere } from './schema-applicators.js';
import { pointerSegments, valueAt, type RefBranchTrials } from './schema-problems.js';

/** A schema whose local `$ref`s (`#/$defs/Name`) resolve in its `$defs`: the protocol's document, or a tool's schema. */
export interface SchemaDocument {
  readonly $defs?: Readonly<Record<string, unknown>>;
}

/** Where a check starts: one of the document's `$defs` (as ajv compiles `#/$defs/Name`), or the document itself. */
export type CheckRoot = string | undefined;

/** The most failed unions one check checks again branch by branch (each reads the value below the union again). */
const UNION_RECHECKS = 8;

const UNIONS = ['anyOf', 'oneOf'] as const;
const DEFINITION_REF = /^#\/\$defs\/([^/~]+)$/;

/** The `$defs` name of a branch that is a `$ref` alone to one, else undefined. */
function definitionOf(branch: unknown): string | undefined {
  if (!isPlainObject(branch) || Object.keys(branch).length !== 1 || typeof branch.$ref !== 'string') return undefined;
  return DEFINITION_REF.exec(branch.$ref)?.[1];
}

/** A schema path segment as ajv spells it (a JSON pointer segment, percent-encoded). */
const segment = (s: string | number): string => (typeof s === 'number' ? String(s) : encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1')));

/**
 * A schema object of a document, with where it is: its definition (none: the document itself) and its path there,
 * as ajv spells schema paths.
 */
interface Located {
  readonly node: Record<string, unknown>;
  readonly definition: CheckRoot;
  readonly path: string;
}

/** The definition `name` of `document`, or the document itself. */
function rootOf(document: SchemaDocument, name: CheckRoot): unknown {
  return name === undefined ? document : document.$defs?.[name];
}

/** The definition a `$ref` to `#/$defs/Name` names in `document`, if it has it. */
function refTarget(document: SchemaDocument, node: Record<string, unknown>): { name: string; target: Record<string, unknown> } | undefined {
  const name = typeof node.$ref === 'string' ? DEFINITION_REF.exec(node.$ref)?.[1] : undefined;
  const target = name !== undefined && document.$defs && Object.hasOwn(document.$defs, name) ? document.$defs[name] : undefined;
  return isPlainObject(target) ? { name: name!, target } : undefined;
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
    const ref = refTarget(document, at.node);
    if (ref) queue.push({ node: ref.target, definition: ref.name, path: '' });
    for (const keyword of ['allOf', ...UNIONS]) {
      const list = at.node[keyword];
      if (Array.isArray(list)) list.forEach((node: unknown, i) => isPlainObject(node) && queue.push({ node, definition: at.definition, path: `${at.path}/${keyword}/${i}` }));
    }
  }
  return out;
}

/** The schemas below `at` that apply to its value's property or item `key`. */
function below(at: Located, key: string | number): Located[] {
  const step = (keyword: string, ...rest: string[]): Located[] => {
    let node: unknown = at.node[keyword];
    for (const s of rest) node = isPlainObject(node) && Object.hasOwn(node, s) ? node[s] : undefined;
    return isPlainObject(node) ? [{ node, definition: at.definition, path: [at.path, keyword, ...rest.map(segment)].join('/') }] : [];
  };
  if (typeof key === 'number') return step('items');
  const properties = at.node.properties;
  return isPlainObject(properties) && Object.hasOwn(properties, key) ? step('properties', key) : step('additionalProperties');
}

/**
 * The branches of the union ajv reported at `schemaPath` for the value at `instancePath` of a value checked from
 * `root`: per branch, the `$defs` name of a `$ref` branch, or undefined for one written in place. Undefined when no
 * union there has a `$ref` branch, or when two there match the path with different branches.
 */
export function unionBranchesAt(
  document: SchemaDocument,
  root: CheckRoot,
  instancePath: readonly (string | number)[],
  union: { readonly keyword: string; readonly schemaPath: string },
): readonly (string | undefined)[] | undefined {
  const node = rootOf(document, root);
  if (!isPlainObject(node)) return undefined;
  let located = applied(document, [{ node, definition: root, path: '' }]);
  for (const key of instancePath) {
    const next = located.flatMap((at) => below(at, key));
    located = applied(document, next);
  }
  const found = new Set<string>();
  for (const { node, definition: name, path } of located) {
    const list = node[union.keyword];
    const within = `${path}/${union.keyword}`;
    if (!Array.isArray(list) || (union.schemaPath !== `#${within}` && (name === undefined || union.schemaPath !== `#/$defs/${name}${within}`))) continue;
    found.add(JSON.stringify(list.map(definitionOf)));
  }
  if (found.size !== 1) return undefined;
  const branches = JSON.parse([...found][0]!) as (string | null)[];
  return branches.some((b) => b !== null) ? branches.map((b) => b ?? undefined) : undefined;
}

/**
 * The `$defs` the `$ref` branches of unions reachable from `from` (through `$ref`s) name: what a check from there
 * may check a failed union's branches against, so what is compiled beside it.
 */
export function unionBranchDefinitions(document: SchemaDocument, from: readonly CheckRoot[]): string[] {
  const seen = new Set<unknown>();
  const branchTargets = new Set<string>();
  const queue = from.map((root) => rootOf(document, root));
  while (queue.length) {
    const root = queue.pop();
    if (seen.has(root) || !isPlainObject(root)) continue;
    seen.add(root);
    // Every schema object in `root` (no match ends the walk; `$ref`s are followed through the queue).
    firstSubschemaWhere(root, (node) => {
      const ref = refTarget(document, node);
      if (ref) queue.push(ref.target);
      for (const keyword of UNIONS)
        if (Array.isArray(node[keyword])) for (const target of (node[keyword] as unknown[]).map(definitionOf)) if (target) branchTargets.add(target);
      return false;
    });
  }
  return [...branchTargets].sort();
}

/**
 * The {@link RefBranchTrials} of one failed check of `value` from `root`: the value below a failed union checked
 * against each of its `$ref` branches with `validatorOf` (compiled beforehand), for at most
 * {@link UNION_RECHECKS} unions.
 */
export function refBranchTrials(document: SchemaDocument, root: CheckRoot, value: unknown, validatorOf: (definition: string) => ValidateFunction): RefBranchTrials {
  let left = UNION_RECHECKS;
  return (union) => {
    if (left === 0) return undefined;
    left--;
    const at = pointerSegments(union.instancePath);
    const branches = unionBranchesAt(document, root, at, union);
    if (!branches) return undefined;
    const below = valueAt(value, at);
    const trials = new Map<number, ErrorObject[]>();
    for (const [branch, name] of branches.entries()) {
      if (name === undefined) continue;
      const check = validatorOf(name);
      if (check(below)) return undefined;
      trials.set(
        branch,
        (check.errors ?? []).map((error) => ({ ...error, instancePath: `${union.instancePath}${error.instancePath}` })),
      );
    }
    return trials;
  };
}

import { isPlainObject } from '../util/is-plain-object.js';
import { SCHEMA_APPLICATORS, someSubschema } from '../validation/schema-applicators.js';
import type { ProtocolSchemaDocument } from './protocol-schema.js';

const UNIONS = ['anyOf', 'oneOf'] as const;
const DEFINITION_REF = /^#\/\$defs\/([^/~]+)$/;

/** The `$defs` name of a branch that is a `$ref` alone to one, else undefined. */
function definitionOf(branch: unknown): string | undefined {
  if (!isPlainObject(branch) || Object.keys(branch).length !== 1 || typeof branch.$ref !== 'string') return undefined;
  return DEFINITION_REF.exec(branch.$ref)?.[1];
}

/** A schema path segment as ajv spells it (a JSON pointer segment, percent-encoded). */
const segment = (s: string | number): string => (typeof s === 'number' ? String(s) : encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1')));

/** Calls `visit` on each schema object in `schema`, itself included (`$ref`s not followed). */
function eachSubschema(schema: unknown, visit: (node: Record<string, unknown>) => void): void {
  const walk = (node: unknown): undefined => {
    if (!isPlainObject(node)) return undefined;
    visit(node);
    for (const [keyword, value] of Object.entries(node)) {
      const kind = SCHEMA_APPLICATORS.get(keyword);
      if (kind !== undefined) someSubschema(kind, value, walk);
    }
    return undefined;
  };
  walk(schema);
}

/** A schema object of a document, with where it is: its definition and its path there (as ajv spells paths). */
interface Located {
  readonly node: Record<string, unknown>;
  readonly definition: string;
  readonly path: string;
}

/** `located` with the schemas it applies in place added: those its `$ref`s, `allOf`s and union branches name. */
function applied(document: ProtocolSchemaDocument, located: readonly Located[]): Located[] {
  const out: Located[] = [];
  const seen = new Set<Record<string, unknown>>();
  const queue = [...located];
  while (queue.length) {
    const at = queue.pop()!;
    if (seen.has(at.node)) continue;
    seen.add(at.node);
    out.push(at);
    const ref = typeof at.node.$ref === 'string' ? DEFINITION_REF.exec(at.node.$ref)?.[1] : undefined;
    const target = ref !== undefined && Object.hasOwn(document.$defs, ref) ? document.$defs[ref] : undefined;
    if (isPlainObject(target)) queue.push({ node: target, definition: ref!, path: '' });
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
 * The branches of the union ajv reported at `schemaPath` for the value at `instancePath` of a value checked against
 * `definition`: per branch, the `$defs` name of a `$ref` branch, or undefined for one written in place. Undefined
 * when no union there has a `$ref` branch, or when two there match the path with different branches.
 */
export function unionBranchesAt(
  document: ProtocolSchemaDocument,
  definition: string,
  instancePath: readonly (string | number)[],
  union: { readonly keyword: string; readonly schemaPath: string },
): readonly (string | undefined)[] | undefined {
  const root = document.$defs[definition];
  if (!isPlainObject(root)) return undefined;
  let located = applied(document, [{ node: root, definition, path: '' }]);
  for (const key of instancePath) {
    const next = located.flatMap((at) => below(at, key));
    located = applied(document, next);
  }
  const found = new Set<string>();
  for (const { node, definition: name, path } of located) {
    const list = node[union.keyword];
    const within = `${path}/${union.keyword}`;
    if (!Array.isArray(list) || (union.schemaPath !== `#${within}` && union.schemaPath !== `#/$defs/${name}${within}`)) continue;
    found.add(JSON.stringify(list.map(definitionOf)));
  }
  if (found.size !== 1) return undefined;
  const branches = JSON.parse([...found][0]!) as (string | null)[];
  return branches.some((b) => b !== null) ? branches.map((b) => b ?? undefined) : undefined;
}

/**
 * The `$defs` the `$ref` branches of unions reachable from `from` (through `$ref`s) name: what a check of those
 * definitions may check a failed union's branches against, so what is compiled ahead of time beside them.
 */
export function unionBranchDefinitions(document: ProtocolSchemaDocument, from: readonly string[]): string[] {
  const seen = new Set<string>();
  const branchTargets = new Set<string>();
  const queue = [...from];
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name) || !Object.hasOwn(document.$defs, name)) continue;
    seen.add(name);
    eachSubschema(document.$defs[name], (node) => {
      const ref = typeof node.$ref === 'string' ? DEFINITION_REF.exec(node.$ref)?.[1] : undefined;
      if (ref !== undefined) queue.push(ref);
      for (const keyword of UNIONS)
        if (Array.isArray(node[keyword])) for (const target of (node[keyword] as unknown[]).map(definitionOf)) if (target) branchTargets.add(target);
    });
  }
  return [...branchTargets].sort();
}

import { isPlainObject } from '../util/is-plain-object.js';
import { schemaPath } from './json-value.js';
import { resolveLocalRef, type SchemaDocument } from './local-ref.js';
import { ALSO_APPLIED, SCHEMA_APPLICATORS, someSubschema } from './schema-applicators.js';

/** Applicators that check the very value their schema checks, not a part of it (and `$ref`, beside them). */
export const IN_PLACE_APPLICATORS: readonly string[] = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'dependencies'];
const IN_PLACE = new Set(IN_PLACE_APPLICATORS);

/** Keywords whose subschemas ajv never applies where they sit: definitions, and `contentSchema` (an annotation). */
const NOT_APPLIED = new Set(['$defs', 'definitions', 'contentSchema']);

/** A `$ref` of an in-place cycle and the schema path of the schema that declares it. */
export interface CycleRef {
  readonly ref: string;
  readonly at: string;
}

/** A cycle of in-place steps: where it starts and ends, and the `$ref`s along it, in order. */
export interface InPlaceCycle {
  readonly at: string;
  readonly refs: readonly CycleRef[];
}

/** How many `$ref`s of an in-place cycle its configuration error names; the rest are counted. */
const CYCLE_REFS_NAMED = 5;

/** Why a schema holding `cycle` is refused: its `$ref`s (up to {@link CYCLE_REFS_NAMED}), where it leads, what to do. */
export function describeCycle({ at, refs }: InPlaceCycle): string {
  const named = refs.slice(0, CYCLE_REFS_NAMED).map(({ ref, at: from }) => `$ref ${JSON.stringify(ref)} (at ${from})`);
  if (refs.length > named.length) named.push(`${refs.length - named.length} more`);
  return `recurses without end: ${named.join(', then ')} ${refs.length > 1 ? 'lead' : 'leads'} back to ${at} through keywords that check the same value (${IN_PLACE_APPLICATORS.join(', ')}, $ref), so checking a value there would never finish; let the recursion pass through properties, items or another keyword that checks a part of the value`;
}

interface Step {
  readonly to: Record<string, unknown>;
  readonly inPlace: boolean;
  readonly ref?: string;
}

/**
 * The first cycle, among the subschemas ajv applies from the root, whose every step checks the same value (an
 * in-place applicator or a `$ref`): ajv's validator recurses through it without end on a value that reaches it, so
 * the schema can never check that value. A recursion through `properties`, `items` and the other applicators that
 * check a part of the value ends with the value. `$ref`s are followed inside the document: `#`, a JSON pointer, an
 * `$anchor`, or the root's own `$id` (relative too); a `$dynamicRef` or `$recursiveRef` is not (ajv resolves it by
 * the call's dynamic scope), nor is any reference of a document whose subschemas declare their own `$id`, so no
 * cycle is reported there. As ajv, an `if` counts only beside a `then` or `else` that checks something (holds a
 * keyword of `rules`, ajv's keywords), and a `then` or `else` only beside an `if`. A cycle under a condition no
 * value meets (an `else` beside `"if": {}`) counts too: the walk reads the schema, not the values it admits.
 */
export function inPlaceCycle(schema: SchemaDocument, rules: Readonly<Record<string, unknown>>): InPlaceCycle | undefined {
  const where = new Map<object, string>();
  const anchors = new Map<string, Record<string, unknown>>();
  let scoped = false;
  const path: (string | number)[] = [];
  const record = (node: unknown, segment?: string | number): undefined => {
    if (!isPlainObject(node) || where.has(node)) return undefined;
    if (segment !== undefined) path.push(segment);
    where.set(node, schemaPath(path));
    scoped ||= node !== schema && Object.hasOwn(node, '$id');
    for (const anchor of [node.$anchor, node.$dynamicAnchor]) if (typeof anchor === 'string' && !anchors.has(anchor)) anchors.set(anchor, node);
    for (const keyword of Object.keys(node)) {
      const kind = SCHEMA_APPLICATORS.get(keyword) ?? ALSO_APPLIED.get(keyword);
      if (kind === undefined) continue;
      path.push(keyword);
      someSubschema(kind, node[keyword], record);
      path.pop();
    }
    if (segment !== undefined) path.pop();
    return undefined;
  };
  record(schema);
  if (scoped) return undefined;

  const target = (ref: string): Record<string, unknown> | undefined => {
    const fragment = ref.startsWith('#') ? ref : fragmentOfRoot(schema, ref);
    if (fragment === undefined) return undefined;
    if (fragment === '#' || fragment.startsWith('#/')) {
      const node = resolveLocalRef(schema, fragment);
      if (node && !where.has(node)) where.set(node, fragment);
      return node;
    }
    try {
      return anchors.get(decodeURIComponent(fragment.slice(1)));
    } catch {
      return undefined;
    }
  };
  const stepsByNode = new Map<object, Step[]>();
  const stepsOf = (node: Record<string, unknown>): Step[] => {
    let steps = stepsByNode.get(node);
    if (steps) return steps;
    steps = [];
    for (const keyword of Object.keys(node)) {
      const kind = SCHEMA_APPLICATORS.get(keyword) ?? ALSO_APPLIED.get(keyword);
      if (kind === undefined || NOT_APPLIED.has(keyword) || ignoredConditional(node, keyword, rules)) continue;
      someSubschema(kind, node[keyword], (sub) => void (isPlainObject(sub) && steps!.push({ to: sub, inPlace: IN_PLACE.has(keyword) })));
    }
    const to = typeof node.$ref === 'string' ? target(node.$ref) : undefined;
    if (to) steps.push({ to, inPlace: true, ref: node.$ref as string });
    stepsByNode.set(node, steps);
    return steps;
  };

  const reachable = new Set<Record<string, unknown>>();
  const queue = isPlainObject(schema) ? [schema] : [];
  for (let node = queue.pop(); node; node = queue.pop()) {
    if (reachable.has(node)) continue;
    reachable.add(node);
    for (const step of stepsOf(node)) queue.push(step.to);
  }

  // A depth-first walk of the in-place steps: a step back to a schema still open on the walk closes a cycle.
  const open = new Set<object>();
  const done = new Set<object>();
  const chain: { from: Record<string, unknown>; step: Step }[] = [];
  const visit = (node: Record<string, unknown>): InPlaceCycle | undefined => {
    open.add(node);
    for (const step of stepsOf(node)) {
      if (!step.inPlace || done.has(step.to)) continue;
      chain.push({ from: node, step });
      if (open.has(step.to)) {
        const cycle = chain.slice(chain.findIndex((link) => link.from === step.to));
        return { at: where.get(step.to)!, refs: cycle.filter((link) => link.step.ref !== undefined).map((link) => ({ ref: link.step.ref!, at: where.get(link.from)! })) };
      }
      const found = visit(step.to);
      if (found) return found;
      chain.pop();
    }
    open.delete(node);
    done.add(node);
    return undefined;
  };
  for (const node of reachable) {
    const found = done.has(node) ? undefined : visit(node);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether ajv passes `keyword` by in `node`: an `if` beside no `then` or `else` that checks something, a `then` or
 * `else` without an `if`.
 */
function ignoredConditional(node: Record<string, unknown>, keyword: string, rules: Readonly<Record<string, unknown>>): boolean {
  if (keyword === 'if') return !checksSomething(node.then, rules) && !checksSomething(node.else, rules);
  return (keyword === 'then' || keyword === 'else') && !Object.hasOwn(node, 'if');
}

/** Whether ajv checks anything with `schema` (its `alwaysValidSchema`, reversed): `false`, or a keyword of `rules`. */
function checksSomething(schema: unknown, rules: Readonly<Record<string, unknown>>): boolean {
  return schema === false || (isPlainObject(schema) && Object.keys(schema).some((key) => Object.hasOwn(rules, key) && Boolean(rules[key])));
}

/** What a relative root `$id` (`tool.json`, which ajv takes as it is) is resolved against, to compare `$ref`s with it. */
const RELATIVE_ID_BASE = 'https://relative-id.invalid/';

/** The fragment (`#...`) of a `ref` that names the root by its own `$id` (absolute or relative), else undefined. */
function fragmentOfRoot(schema: SchemaDocument, ref: string): string | undefined {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') return undefined;
  try {
    const root = new URL(id, RELATIVE_ID_BASE);
    const url = new URL(ref, root);
    const fragment = url.hash || '#';
    url.hash = '';
    root.hash = '';
    return url.href === root.href ? fragment : undefined;
  } catch {
    return undefined;
  }
}

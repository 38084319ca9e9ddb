import { isPlainObject } from '../util/is-plain-object.js';
import { setOwnKey } from '../util/own-key.js';
import { schemaPath } from '../validation/json-value.js';
import { compareSegments, dataPath } from './data-path.js';
import type { JsonSchema } from './tool.interfaces.js';

/**
 * The unknown-key gate's reading of a schema (the key-set closure): an object is closed when it declares
 * `properties` without `additionalProperties` true or a schema, or writes `additionalProperties: false`. The gate
 * follows `properties`, `patternProperties`, `additionalProperties`, `items` and `prefixItems` only, and reads
 * keys, never values. See docs/tools.md ("The unknown-key gate").
 * Proven by: test/tools/key-set.spec.ts
 */
export interface KeyNode {
  /** Whether a key outside `properties` and `patterns` is refused here. */
  readonly closed: boolean;
  /** Declared property names, each with the node its value is read by (undefined: nothing to read below). */
  readonly properties: ReadonlyMap<string, KeyNode | undefined>;
  /** `patternProperties`: a key matching one is admitted and its value read by the pattern's node. */
  readonly patterns: readonly { readonly source: string; readonly regex: RegExp; readonly node: KeyNode | undefined }[];
  /** The node of an `additionalProperties` schema, reading the value of every other key. */
  readonly additional: KeyNode | undefined;
  /** The node of `items` (every array element past `prefixItems`). */
  readonly items: KeyNode | undefined;
  /** The nodes of `prefixItems`, by position. */
  readonly prefixItems: readonly (KeyNode | undefined)[];
}

/** How `allowed` names "any key" where an object admits every string key. */
export const ANY_STRING_KEY = '<any string key>';

/** How many unknown keys a refusal lists; `unknown_count` counts them all. */
export const UNKNOWN_LISTED = 10;

/** Keywords whose value is one subschema, a list of them, or a map of them (JSON Schema 2020-12 applicators). */
const ONE_SCHEMA = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * The schema-shape check at module init, before ajv and under every applicator: the first offence, naming its
 * schema path, or undefined, so the key-set tree is only ever built from a well-shaped schema.
 */
export function schemaOffence(schema: unknown): string | undefined {
  const visitMap = (map: unknown, path: (string | number)[], keyword: string): string | undefined => {
    if (!isPlainObject(map)) return `at ${schemaPath(path)}: "${keyword}" must be a map of property schemas`;
    for (const [name, sub] of Object.entries(map)) {
      const offence = visit(sub, [...path, name]);
      if (offence) return offence;
    }
    return undefined;
  };
  const visit = (node: unknown, path: (string | number)[]): string | undefined => {
    if (typeof node === 'boolean') return undefined;
    if (!isPlainObject(node)) return `at ${schemaPath(path)}: a schema must be an object, true or false`;
    for (const [keyword, value] of Object.entries(node)) {
      let offence: string | undefined;
      if (keyword === 'additionalProperties' && typeof value !== 'boolean' && !isPlainObject(value))
        offence = `at ${schemaPath([...path, keyword])}: "additionalProperties" must be true, false or a schema`;
      else if (SCHEMA_MAP.includes(keyword)) offence = visitMap(value, [...path, keyword], keyword);
      else if (ONE_SCHEMA.includes(keyword)) offence = visit(value, [...path, keyword]);
      else if (SCHEMA_LIST.includes(keyword) && Array.isArray(value)) offence = value.map((sub, i) => visit(sub, [...path, keyword, i])).find((o) => o !== undefined);
      if (offence) return offence;
    }
    return undefined;
  };
  return visit(schema, []);
}

/**
 * Builds the key-set tree of one schema (undefined when nothing below it is ever refused). The schema has
 * passed {@link schemaOffence} and ajv, so its patterns compile.
 */
export function keyNode(schema: unknown): KeyNode | undefined {
  if (!isPlainObject(schema)) return undefined;
  const declared = isPlainObject(schema.properties) ? schema.properties : undefined;
  const ap = schema.additionalProperties;
  const closed = declared ? ap !== true && !isPlainObject(ap) : ap === false;
  const properties = new Map<string, KeyNode | undefined>();
  for (const [name, sub] of Object.entries(declared ?? {})) properties.set(name, keyNode(sub));
  const patterns = Object.entries(isPlainObject(schema.patternProperties) ? schema.patternProperties : {}).map(([source, sub]) => ({
    source,
    regex: new RegExp(source, 'u'),
    node: keyNode(sub),
  }));
  const additional = isPlainObject(ap) ? keyNode(ap) : undefined;
  const items = keyNode(schema.items);
  const prefixItems = Array.isArray(schema.prefixItems) ? schema.prefixItems.map(keyNode) : [];
  const node: KeyNode = { closed, properties, patterns, additional, items, prefixItems };
  const readsBelow = closed || additional || items || prefixItems.some(Boolean) || patterns.some((p) => p.node) || [...properties.values()].some(Boolean);
  return readsBelow ? node : undefined;
}

/** The key-set tree of an action's `data`: an object closed to the action's properties. */
export function dataKeyNode(properties: Record<string, JsonSchema>): KeyNode {
  return keyNode({ type: 'object', properties, additionalProperties: false })!;
}

/** What the unknown-key gate found: every unknown key counted, the first ten listed, and what each holder allows. */
export interface UnknownKeys {
  /** How many unknown keys the data holds, at every depth. */
  readonly unknown_count: number;
  /** The first ten, as data paths, in data-path sort order. */
  readonly unknown: readonly string[];
  /** For each object on the way to a listed key, up to data itself under `""`: the keys it admits. */
  readonly allowed: Readonly<Record<string, readonly string[]>>;
}

interface Frame {
  readonly segments: readonly (string | number)[];
  readonly node: KeyNode;
  readonly parent: Frame | undefined;
}

function allowedKeys(node: KeyNode): string[] {
  const names = [...node.properties.keys()].sort();
  for (const pattern of node.patterns) names.push(`<key matching ${JSON.stringify(pattern.source)}>`);
  if (!node.closed) names.push(ANY_STRING_KEY);
  return names;
}

/**
 * The unknown-key gate's check: what `node` refuses in `value` at every depth, or undefined. Own keys only (a
 * caller's `__proto__` is a key like any other); the answer stays bounded whatever the caller sent.
 */
export function findUnknownKeys(node: KeyNode, value: unknown): UnknownKeys | undefined {
  const found: { segments: (string | number)[]; frame: Frame }[] = [];
  const visit = (n: KeyNode | undefined, v: unknown, segments: (string | number)[], parent: Frame | undefined): void => {
    if (!n) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => visit(i < n.prefixItems.length ? n.prefixItems[i] : n.items, item, [...segments, i], parent));
      return;
    }
    if (!isPlainObject(v)) return;
    const frame: Frame = { segments, node: n, parent };
    for (const key of Object.keys(v)) {
      const child = [...segments, key];
      if (n.properties.has(key)) visit(n.properties.get(key), v[key], child, frame);
      else {
        const pattern = n.patterns.find((p) => p.regex.test(key));
        if (pattern) visit(pattern.node, v[key], child, frame);
        else if (n.additional) visit(n.additional, v[key], child, frame);
        else if (n.closed) found.push({ segments: child, frame });
      }
    }
  };
  visit(node, value, [], undefined);
  if (found.length === 0) return undefined;
  found.sort((a, b) => compareSegments(a.segments, b.segments));
  const listed = found.slice(0, UNKNOWN_LISTED);
  const holders = new Map<string, { segments: readonly (string | number)[]; keys: string[] }>();
  for (const { frame } of listed)
    for (let f: Frame | undefined = frame; f; f = f.parent) {
      const path = dataPath(f.segments);
      if (!holders.has(path)) holders.set(path, { segments: f.segments, keys: allowedKeys(f.node) });
    }
  const allowed: Record<string, readonly string[]> = {};
  for (const [path, { keys }] of [...holders].sort((a, b) => compareSegments(a[1].segments, b[1].segments))) setOwnKey(allowed, path, keys);
  return { unknown_count: found.length, unknown: listed.map((f) => dataPath(f.segments)), allowed };
}

/**
 * Publishes the closure: a copy of `schema` with `additionalProperties: false` on every object schema the gate
 * closes by default, so what help and tools/list show is what the gate enforces.
 */
export function closeSchema<S>(schema: S): S {
  if (!isPlainObject(schema)) return schema;
  const copy: Record<string, unknown> = { ...schema };
  const closeMap = (map: unknown) => (isPlainObject(map) ? closeProperties(map as Record<string, JsonSchema>) : map);
  if (isPlainObject(schema.properties)) {
    copy.properties = closeMap(schema.properties);
    if (!Object.hasOwn(schema, 'additionalProperties')) copy.additionalProperties = false;
  }
  if (isPlainObject(schema.patternProperties)) copy.patternProperties = closeMap(schema.patternProperties);
  if (isPlainObject(schema.additionalProperties)) copy.additionalProperties = closeSchema(schema.additionalProperties);
  if (isPlainObject(schema.items)) copy.items = closeSchema(schema.items);
  if (Array.isArray(schema.prefixItems)) copy.prefixItems = schema.prefixItems.map((sub) => closeSchema(sub));
  return copy as S;
}

/** Closes every schema of a `properties` map ({@link closeSchema}). */
export function closeProperties(properties: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const closed: Record<string, JsonSchema> = {};
  for (const name of Object.keys(properties)) setOwnKey(closed, name, closeSchema(properties[name]));
  return closed;
}

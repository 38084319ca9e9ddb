import { isPlainObject } from '../util/is-plain-object.js';
import { nearMissesOf, offeredNearMisses } from '../util/near-miss.js';
import { ownCopy, setOwnKey } from '../util/own-key.js';
import { schemaPath } from '../validation/json-value.js';
import { patternTest } from '../validation/pattern-test.js';
import { SCHEMA_APPLICATORS, someSubschema } from '../validation/schema-applicators.js';
import { compareSegments, dataPath } from './data-path.js';
import type { JsonSchema } from './tool.interfaces.js';

/**
 * The unknown-key gate's reading of a schema (the key-set closure): an object is closed when it writes
 * `additionalProperties: false`, or declares `properties` without any `additionalProperties` and without a keyword
 * through which other keys may be admitted ({@link KEY_ADMITTING}). The gate follows `properties`,
 * `patternProperties`, `additionalProperties`, `items` and `prefixItems` only, and reads keys, never values. See
 * docs/tools.md ("The unknown-key gate").
 * Proven by: test/tools/key-set.spec.ts
 */
export interface KeyNode {
  /** Whether a key outside `properties` and `patterns` is refused here. */
  readonly closed: boolean;
  /** Declared property names, each with the node its value is read by (null: nothing to read below; one lookup tells). */
  readonly properties: ReadonlyMap<string, KeyNode | null>;
  /** The declared names a caller may send (not those declared `false`): what `allowed` lists and near misses offer. */
  readonly offered: readonly string[];
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
const UNKNOWN_LISTED = 10;

/**
 * Keywords through which an object schema may admit keys its own `properties` do not name (composition, `$ref`,
 * conditionals): the gate does not close an object that uses one, or an `unevaluatedProperties` other than false
 * (checked beside this list), unless it writes `additionalProperties: false`.
 */
export const KEY_ADMITTING = ['allOf', 'anyOf', 'oneOf', '$ref', '$dynamicRef', '$recursiveRef', 'if', 'then', 'else', 'dependentSchemas', 'dependencies'] as const;

/** Whether the gate closes an object schema to its own property names and patterns (the key-set closure). */
function closes(schema: Record<string, unknown>): boolean {
  const ap = schema.additionalProperties;
  if (ap !== undefined) return ap === false;
  const unevaluated = schema.unevaluatedProperties;
  if (unevaluated !== undefined && unevaluated !== false) return false;
  return isPlainObject(schema.properties) && !KEY_ADMITTING.some((keyword) => Object.hasOwn(schema, keyword));
}

/** The applicators the gate reads below an object or array: a closed object under them is enforced. */
export const GATED: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'additionalProperties', 'items', 'prefixItems']);

/**
 * The schema-shape check at module init, before ajv and under every applicator: the first offence, naming its
 * schema path, or undefined, so the key-set tree is only ever built from a well-shaped schema. Where the gate reads,
 * a closed object may not require a key it refuses (no call could satisfy it).
 */
export function schemaOffence(schema: unknown): string | undefined {
  // One path, extended and cut back as the walk goes: spelled out only for an offence.
  return shapeOffence(schema, [], true);
}

// The module-init walks below use indexed loops (CONTRIBUTING.md, "Performance").

function shapeOffence(node: unknown, path: (string | number)[], gated: boolean): string | undefined {
  if (typeof node === 'boolean') return undefined;
  if (!isPlainObject(node)) return `at ${schemaPath(path)}: a schema must be an object, true or false`;
  const keywords = Object.keys(node);
  for (let i = 0; i < keywords.length; i++) {
    const keyword = keywords[i]!;
    const kind = SCHEMA_APPLICATORS.get(keyword);
    if (kind === undefined) continue;
    path.push(keyword);
    const offence = applicatorOffence(keyword, kind, node[keyword], path, gated && GATED.has(keyword));
    path.pop();
    if (offence) return offence;
  }
  return gated ? refusedRequirement(node, path) : undefined;
}

/** A closed object's `required` naming a key it refuses: the offence, or undefined. */
function refusedRequirement(node: Record<string, unknown>, path: readonly (string | number)[]): string | undefined {
  if (!Array.isArray(node.required) || !closes(node)) return undefined;
  const declared = isPlainObject(node.properties) ? node.properties : {};
  const patterns: RegExp[] = [];
  for (const source of isPlainObject(node.patternProperties) ? Object.keys(node.patternProperties) : []) {
    try {
      patterns.push(new RegExp(source, 'u'));
    } catch {
      return undefined; // ajv refuses the pattern, naming it
    }
  }
  const refused = node.required.filter((name) => typeof name === 'string' && !Object.hasOwn(declared, name) && !patterns.some((p) => p.test(name)));
  if (!refused.length) return undefined;
  return (
    `at ${schemaPath(path)}: required names ${refused.map((name) => JSON.stringify(name)).join(', ')}, which properties does not declare, and the ` +
    'unknown-key gate closes this object to its properties: no call could satisfy both (declare it, or write additionalProperties)'
  );
}

function applicatorOffence(keyword: string, kind: 'one' | 'list' | 'map', value: unknown, path: (string | number)[], gated: boolean): string | undefined {
  if (keyword === 'additionalProperties' && typeof value !== 'boolean' && !isPlainObject(value))
    return `at ${schemaPath(path)}: "additionalProperties" must be true, false or a schema`;
  if (kind === 'one') return shapeOffence(value, path, gated);
  if (kind === 'map' && !isPlainObject(value)) return `at ${schemaPath(path)}: "${keyword}" must be a map of property schemas`;
  return someSubschema(kind, value, (subschema, segment) => {
    path.push(segment!);
    const offence = shapeOffence(subschema, path, gated);
    path.pop();
    return offence;
  });
}

/**
 * Builds the key-set tree of one schema (undefined when nothing below it is ever refused). The schema has
 * passed {@link schemaOffence} and ajv, so its patterns compile.
 */
export function keyNode(schema: unknown): KeyNode | undefined {
  if (!isPlainObject(schema)) return undefined;
  const declared = isPlainObject(schema.properties) ? schema.properties : undefined;
  const ap = schema.additionalProperties;
  const closed = closes(schema);
  let readsBelow = closed;
  const properties = new Map<string, KeyNode | null>();
  let offered: readonly string[] = NONE;
  if (declared) {
    const names = Object.keys(declared);
    for (let i = 0; i < names.length; i++) {
      const sub = keyNode(declared[names[i]!]);
      properties.set(names[i]!, sub ?? null);
      readsBelow ||= sub !== undefined;
    }
    offered = names.filter((name) => declared[name] !== false);
  }
  const patternSchemas = isPlainObject(schema.patternProperties) ? schema.patternProperties : undefined;
  const patterns = patternSchemas ? Object.keys(patternSchemas).map((source) => ({ source, regex: new RegExp(source, 'u'), node: keyNode(patternSchemas[source]) })) : NONE;
  const additional = isPlainObject(ap) ? keyNode(ap) : undefined;
  const items = keyNode(schema.items);
  const prefixItems = Array.isArray(schema.prefixItems) ? schema.prefixItems.map(keyNode) : NONE;
  readsBelow ||= additional !== undefined || items !== undefined || prefixItems.some(Boolean) || patterns.some((p) => p.node);
  return readsBelow ? { closed, properties, offered, patterns, additional, items, prefixItems } : undefined;
}

/** The empty list a node without `patternProperties` or `prefixItems` shares. */
const NONE: readonly never[] = Object.freeze([]);

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

/** What {@link findUnknownKeys} found: the refusal's fields, and the near miss of each listed key for its message. */
export interface FoundUnknownKeys extends UnknownKeys {
  /**
   * For each key of `unknown`, the property its object declares that it nearly spells (`firstName` for
   * `first_name`), unless the object holds that one too or another listed key of it nearly spells it as well.
   */
  readonly nearMisses: readonly (string | undefined)[];
}

interface Frame {
  readonly segments: readonly (string | number)[];
  readonly node: KeyNode;
  readonly value: Readonly<Record<string, unknown>>;
  readonly parent: Frame | undefined;
}

function allowedKeys(node: KeyNode): string[] {
  const names = [...node.offered].sort();
  for (const pattern of node.patterns) names.push(`<key matching ${JSON.stringify(pattern.source)}>`);
  if (!node.closed) names.push(ANY_STRING_KEY);
  return names;
}

/** What a node's key is to the gate: refused, or admitted with the node its value is read by (undefined: none). */
const REFUSED = Symbol('refused');

/** How `node` takes `key`: a declared property, then the first matching pattern, then `additionalProperties`. */
function keyRead(node: KeyNode, key: string): KeyNode | undefined | typeof REFUSED {
  const declared = node.properties.get(key);
  if (declared !== undefined) return declared ?? undefined;
  for (const pattern of node.patterns) if (patternTest(pattern.regex, key)) return pattern.node;
  if (node.additional) return node.additional;
  return node.closed ? REFUSED : undefined;
}

/** The node that reads array item `index`: its `prefixItems` entry, else `items`. */
function itemRead(node: KeyNode, index: number): KeyNode | undefined {
  return index < node.prefixItems.length ? node.prefixItems[index] : node.items;
}

/** Whether `node` refuses some key of `value`, at any depth: {@link findUnknownKeys}'s walk, stopping at the first. */
function holdsUnknownKey(node: KeyNode | undefined, value: unknown): boolean {
  if (!node) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsUnknownKey(itemRead(node, i), value[i])) return true;
    return false;
  }
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) {
    const below = keyRead(node, key);
    if (below === REFUSED || holdsUnknownKey(below, value[key])) return true;
  }
  return false;
}

/**
 * The unknown-key gate's check: what `node` refuses in `value` at every depth, or undefined. Own keys only (a
 * caller's `__proto__` is a key like any other); the answer stays bounded whatever the caller sent.
 */
export function findUnknownKeys(node: KeyNode, value: unknown): FoundUnknownKeys | undefined {
  if (!holdsUnknownKey(node, value)) return undefined; // the common case, walked without allocating
  // Only the first UNKNOWN_LISTED in data-path order are listed: they are kept in order as found, the rest counted.
  const listed: { segments: (string | number)[]; frame: Frame }[] = [];
  let count = 0;
  const note = (segments: (string | number)[], frame: Frame): void => {
    count++;
    let at = listed.length;
    while (at > 0 && compareSegments(segments, listed[at - 1]!.segments) < 0) at--;
    if (at === UNKNOWN_LISTED) return;
    listed.splice(at, 0, { segments, frame });
    if (listed.length > UNKNOWN_LISTED) listed.pop();
  };
  const visit = (n: KeyNode | undefined, v: unknown, segments: (string | number)[], parent: Frame | undefined): void => {
    if (!n) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => visit(itemRead(n, i), item, [...segments, i], parent));
      return;
    }
    if (!isPlainObject(v)) return;
    const frame: Frame = { segments, node: n, value: v, parent };
    for (const key of Object.keys(v)) {
      const below = keyRead(n, key);
      if (below === REFUSED) note([...segments, key], frame);
      else visit(below, v[key], [...segments, key], frame);
    }
  };
  visit(node, value, [], undefined);
  if (count === 0) return undefined;
  const holders = new Map<string, { segments: readonly (string | number)[]; keys: string[] }>();
  for (const { frame } of listed)
    for (let f: Frame | undefined = frame; f; f = f.parent) {
      const path = dataPath(f.segments);
      if (!holders.has(path)) holders.set(path, { segments: f.segments, keys: allowedKeys(f.node) });
    }
  const allowed: Record<string, readonly string[]> = {};
  for (const [path, { keys }] of [...holders].sort((a, b) => compareSegments(a[1].segments, b[1].segments))) setOwnKey(allowed, path, keys);
  return { unknown_count: count, unknown: listed.map((f) => dataPath(f.segments)), allowed, nearMisses: nearMissesListed(listed) };
}

/** The near miss of each listed key ({@link FoundUnknownKeys.nearMisses}). */
function nearMissesListed(listed: readonly { readonly segments: readonly (string | number)[]; readonly frame: Frame }[]): (string | undefined)[] {
  return offeredNearMisses(listed.map(({ segments, frame }) => ({ name: String(segments.at(-1)), among: nearMissesOf(frame.node.offered), sentIn: frame.value })));
}

/**
 * Publishes the closure: a copy of `schema` with `additionalProperties: false` on every object schema the gate
 * closes by default, so what help and tools/list show is what the gate enforces.
 */
export function closeSchema<S>(schema: S): S {
  if (!isPlainObject(schema)) return schema;
  const copy: Record<string, unknown> = ownCopy(schema);
  const closeMap = (map: unknown) => (isPlainObject(map) ? closeProperties(map as Record<string, JsonSchema>) : map);
  if (isPlainObject(schema.properties)) {
    copy.properties = closeMap(schema.properties);
    if (!Object.hasOwn(schema, 'additionalProperties') && closes(schema)) copy.additionalProperties = false;
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
  const names = Object.keys(properties);
  for (let i = 0; i < names.length; i++) setOwnKey(closed, names[i]!, closeSchema(properties[names[i]!]));
  return closed;
}

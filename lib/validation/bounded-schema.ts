import type { ErrorObject } from 'ajv';

import { isPlainObject } from '../util/is-plain-object.js';
import { schemaPath } from './json-value.js';
import { DETAILED_CHECK_MAX_VALUES } from './value-count.js';

/**
 * The keywords that check one location and apply no subschema to another: each reports at most once per location,
 * however large the value there. Annotations are here too. A keyword outside this list, `properties`, `items` and
 * a boolean `additionalProperties` (composition, conditionals, references, key patterns, an unknown keyword) makes
 * a schema unbounded.
 */
export const ONE_LOCATION_KEYWORDS = [
  ...['$schema', '$comment', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly'],
  ...['contentEncoding', 'contentMediaType', 'type', 'enum', 'const', 'format', 'pattern', 'multipleOf'],
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength'],
  ...['minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'required', 'dependentRequired'],
] as const;
const ONE_LOCATION: ReadonlySet<string> = new Set(ONE_LOCATION_KEYWORDS);

/** Where a bounded schema reads below a location: by property name, and into each item (under the array's limit). */
interface LimitNode {
  readonly properties: readonly (readonly [string, LimitNode])[];
  readonly items: { readonly limit: number; readonly node: LimitNode | undefined } | undefined;
}

/**
 * The item limits of a bounded schema: a schema whose every-problem check visits at most
 * `DETAILED_CHECK_MAX_VALUES` locations of any value whose arrays keep to their `maxItems`, and reports at most a
 * fixed number of problems at each. Such a schema needs no first-problem validator: see `failedBoundedCheck`.
 * Objects are read through `properties` only; one that closes with `additionalProperties: false` relies on the
 * unknown-key gate having refused extra keys first.
 */
export interface ItemLimits {
  /** The first array, in schema order, holding more items than its `maxItems`: as ajv reports a `maxItems` failure. */
  overLimit(value: unknown): ErrorObject | undefined;
}

/** The item limits of `schema` when it is bounded (see {@link ItemLimits}); undefined when it is not. */
export function itemLimits(schema: unknown): ItemLimits | undefined {
  const read = reach(schema);
  if (!read) return undefined;
  const node = read.node;
  return { overLimit: node ? (value) => overLimit(node, value) : () => undefined };
}

/** How many locations a schema's check visits at most, and where it reads below; undefined when unbounded. */
function reach(schema: unknown): { readonly locations: number; readonly node: LimitNode | undefined } | undefined {
  if (typeof schema === 'boolean') return { locations: 1, node: undefined };
  if (!isPlainObject(schema)) return undefined;
  let locations = 1;
  const properties: (readonly [string, LimitNode])[] = [];
  let items: LimitNode['items'];
  // Indexed loops, as in every module-init schema walk (CONTRIBUTING.md, "Performance").
  const keywords = Object.keys(schema);
  for (let k = 0; k < keywords.length; k++) {
    const keyword = keywords[k]!;
    const value = schema[keyword];
    if (ONE_LOCATION.has(keyword) || (keyword === 'additionalProperties' && typeof value === 'boolean')) continue;
    if (keyword === 'properties' && isPlainObject(value)) {
      const names = Object.keys(value);
      for (let n = 0; n < names.length; n++) {
        const below = reach(value[names[n]!]);
        if (!below) return undefined;
        locations += below.locations;
        if (below.node) properties.push([names[n]!, below.node]);
      }
    } else if (keyword === 'items') {
      const limit = schema.maxItems;
      const below = typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0 ? reach(value) : undefined;
      if (!below) return undefined;
      locations += (limit as number) * below.locations;
      items = { limit: limit as number, node: below.node };
    } else return undefined;
    if (locations > DETAILED_CHECK_MAX_VALUES) return undefined;
  }
  return { locations, node: properties.length || items ? { properties, items } : undefined };
}

/** The first over-limit array below `node` in `value`, found without visiting more than the limits allow. */
function overLimit(node: LimitNode, value: unknown): ErrorObject | undefined {
  const found = firstOverLimit(node, value);
  return found && maxItemsError(found.reversedPath.reverse(), found.limit);
}

/**
 * {@link overLimit}'s walk. A value within its limits (every valid call) allocates nothing: the path is spelled
 * only for a find, segment by segment as the walk unwinds.
 */
function firstOverLimit(at: LimitNode, here: unknown): { readonly reversedPath: (string | number)[]; readonly limit: number } | undefined {
  if (at.items && Array.isArray(here)) {
    const { limit, node: below } = at.items;
    if (here.length > limit) return { reversedPath: [], limit };
    if (below)
      for (let i = 0; i < here.length; i++) {
        const found = firstOverLimit(below, here[i]);
        if (found) return (found.reversedPath.push(i), found);
      }
  } else if (at.properties.length && typeof here === 'object' && here !== null && !Array.isArray(here)) {
    for (let p = 0; p < at.properties.length; p++) {
      const [name, below] = at.properties[p]!;
      if (!Object.hasOwn(here, name)) continue;
      const found = firstOverLimit(below, (here as Record<string, unknown>)[name]);
      if (found) return (found.reversedPath.push(name), found);
    }
  }
  return undefined;
}

/** ajv's `maxItems` error at `path` (an instance path is the JSON pointer `schemaPath` spells, without its `#`). */
function maxItemsError(path: readonly (string | number)[], limit: number): ErrorObject {
  const inSchema = path.flatMap((s) => (typeof s === 'number' ? ['items'] : ['properties', s]));
  return { keyword: 'maxItems', instancePath: schemaPath(path).slice(1), schemaPath: schemaPath([...inSchema, 'maxItems']), params: { limit } };
}

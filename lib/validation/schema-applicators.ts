import { isPlainObject } from '../util/is-plain-object.js';

/**
 * How each JSON Schema 2020-12 applicator holds its subschemas: one, a list of them, or a map of them (keyed by
 * property name, pattern or definition name, never by keyword). The schema-shape check and the misspelled-keyword
 * walk read subschemas through it.
 */
export const SCHEMA_APPLICATORS: ReadonlyMap<string, 'one' | 'list' | 'map'> = new Map([
  ...['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'].map(
    (keyword) => [keyword, 'one'] as const,
  ),
  ...['allOf', 'anyOf', 'oneOf', 'prefixItems'].map((keyword) => [keyword, 'list'] as const),
  ...['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'].map((keyword) => [keyword, 'map'] as const),
]);

/**
 * Calls `visit` on each subschema an applicator of `kind` holds in `value` (one; each of a list; each of a map),
 * with the segment leading to it (none for one, else its index or name), in order, until one answers something
 * other than undefined, which it returns. A list or map of the wrong JSON type holds none.
 */
export function someSubschema<T>(kind: 'one' | 'list' | 'map', value: unknown, visit: (subschema: unknown, segment?: string | number) => T | undefined): T | undefined {
  if (kind === 'one') return visit(value);
  const list = kind === 'list' && Array.isArray(value) ? (value as unknown[]) : undefined;
  const map = kind === 'map' && isPlainObject(value) ? value : undefined;
  const names = map ? Object.keys(map) : undefined;
  const count = list ? list.length : names ? names.length : 0;
  for (let i = 0; i < count; i++) {
    const answer = names ? visit(map![names[i]!], names[i]!) : visit(list![i], i);
    if (answer !== undefined) return answer;
  }
  return undefined;
}

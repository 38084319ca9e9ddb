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

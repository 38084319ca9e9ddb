import { isPlainObject } from '../util/is-plain-object.js';
import { schemaPath } from './json-value.js';

/**
 * How each JSON Schema 2020-12 applicator holds its subschemas: one, a list of them, or a map of them (keyed by
 * property name, pattern or definition name, never by keyword). The schema-shape check, the misspelled-keyword
 * walk and {@link firstSubschemaWhere} read subschemas through it.
 */
export const SCHEMA_APPLICATORS: ReadonlyMap<string, 'one' | 'list' | 'map'> = new Map([
  ...['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'].map(
    (keyword) => [keyword, 'one'] as const,
  ),
  ...['allOf', 'anyOf', 'oneOf', 'prefixItems'].map((keyword) => [keyword, 'list'] as const),
  ...['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'].map((keyword) => [keyword, 'map'] as const),
]);

/**
 * Applicators ajv checks beside 2020-12's: draft-07 `dependencies`, whose map holds subschemas or name lists (no
 * schema: a walk passes them by). Not in {@link SCHEMA_APPLICATORS}, whose walks would refuse a name list's shape.
 */
export const ALSO_APPLIED: ReadonlyMap<string, 'map'> = new Map([['dependencies', 'map']]);

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

/**
 * The first schema object in `schema` (itself, then its subschemas depth first, in key order, those of
 * {@link ALSO_APPLIED} too) that `matches`, with its schema path; `matches` also gets the schema objects around it,
 * outermost first. The walk goes below only the objects `enters` lets it (all by default). For schemas being built
 * (module init, a new elicitation form), never per request.
 */
export function firstSubschemaWhere(
  schema: unknown,
  matches: (node: Record<string, unknown>, around: readonly Record<string, unknown>[]) => boolean,
  enters: (node: Record<string, unknown>) => boolean = () => true,
): { node: Record<string, unknown>; at: string } | undefined {
  const path: (string | number)[] = [];
  const around: Record<string, unknown>[] = [];
  const visit = (node: unknown, segment?: string | number): { node: Record<string, unknown>; at: string } | undefined => {
    if (!isPlainObject(node)) return undefined;
    if (segment !== undefined) path.push(segment);
    let found = matches(node, around) ? { node, at: schemaPath(path) } : undefined;
    const keywords = found === undefined && enters(node) ? Object.keys(node) : [];
    around.push(node);
    for (let i = 0; found === undefined && i < keywords.length; i++) {
      const kind = SCHEMA_APPLICATORS.get(keywords[i]!) ?? ALSO_APPLIED.get(keywords[i]!);
      if (kind === undefined) continue;
      path.push(keywords[i]!);
      found = someSubschema(kind, node[keywords[i]!], visit);
      path.pop();
    }
    around.pop();
    if (segment !== undefined) path.pop();
    return found;
  };
  return visit(schema);
}

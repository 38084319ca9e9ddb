import { firstSubschemaWhere } from '../validation/schema-applicators.js';

/**
 * Where an action's `properties` first refer to the root of the schema they sit in (`$ref` or `$dynamicRef` of
 * `"#"`, outside any subschema with its own `$id`), as a schema path from the properties' object; or undefined.
 * That root is the data object the library builds from `properties` alone (required and requiredOneOf are gates of
 * their own, at the top only), so such a reference, zod's idiom for a recursive object, would check the nested
 * objects against no `required` at all. Module init only.
 */
export function rootReference(properties: Record<string, unknown>): string | undefined {
  const outsideResources = (node: Record<string, unknown>) => typeof node.$id !== 'string';
  return firstSubschemaWhere({ properties }, (node) => outsideResources(node) && (node.$ref === '#' || node.$dynamicRef === '#'), outsideResources)?.at;
}

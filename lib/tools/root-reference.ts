import { isPlainObject } from '../util/is-plain-object.js';
import { schemaPath } from '../validation/json-value.js';
import { SCHEMA_APPLICATORS, someSubschema } from '../validation/schema-applicators.js';

/**
 * Where an action's `properties` first refer to the root of the schema they sit in (`$ref` or `$dynamicRef` of
 * `"#"`, outside any subschema with its own `$id`), as a schema path from the properties' object; or undefined.
 * That root is the data object the library builds from `properties` alone (required and requiredOneOf are gates of
 * their own, at the top only), so such a reference, zod's idiom for a recursive object, would check the nested
 * objects against no `required` at all. Module init only.
 */
export function rootReference(properties: Record<string, unknown>): string | undefined {
  const path: (string | number)[] = ['properties'];
  const found = (node: unknown, segment?: string | number): true | undefined => {
    if (segment !== undefined) path.push(segment);
    if (isPlainObject(node) && typeof node.$id !== 'string') {
      if (node.$ref === '#' || node.$dynamicRef === '#') return true;
      const keywords = Object.keys(node);
      for (let i = 0; i < keywords.length; i++) {
        const kind = SCHEMA_APPLICATORS.get(keywords[i]!);
        if (kind === undefined) continue;
        path.push(keywords[i]!);
        if (someSubschema(kind, node[keywords[i]!], found)) return true;
        path.pop();
      }
    }
    if (segment !== undefined) path.pop();
    return undefined;
  };
  return someSubschema('map', properties, found) ? schemaPath(path) : undefined;
}

import { isPlainObject } from '../util/is-plain-object.js';
import { schemaPath } from '../validation/json-value.js';
import { SCHEMA_APPLICATORS } from '../validation/schema-applicators.js';

/**
 * Where an action's `properties` first refer to the root of the schema they sit in (`$ref` or `$dynamicRef` of
 * `"#"`, outside any subschema with its own `$id`), as a schema path from the properties' object; or undefined.
 * That root is the data object the library builds from `properties` alone (required and requiredOneOf are gates of
 * their own, at the top only), so such a reference, zod's idiom for a recursive object, would check the nested
 * objects against no `required` at all. Module init only.
 */
export function rootReference(properties: Record<string, unknown>): string | undefined {
  const path: (string | number)[] = ['properties'];
  const walk = (node: unknown): boolean => {
    if (!isPlainObject(node) || typeof node.$id === 'string') return false;
    if (node.$ref === '#' || node.$dynamicRef === '#') return true;
    const keywords = Object.keys(node);
    for (let i = 0; i < keywords.length; i++) {
      const keyword = keywords[i]!;
      const kind = SCHEMA_APPLICATORS.get(keyword);
      if (kind === undefined) continue;
      path.push(keyword);
      if (kind === 'one' ? walk(node[keyword]) : walkEach(node[keyword], kind)) return true;
      path.pop();
    }
    return false;
  };
  const walkEach = (value: unknown, kind: 'list' | 'map'): boolean => {
    const list = kind === 'list' && Array.isArray(value) ? value : undefined;
    const map = kind === 'map' && isPlainObject(value) ? value : undefined;
    const names = map ? Object.keys(map) : undefined;
    const count = list ? list.length : names ? names.length : 0;
    for (let j = 0; j < count; j++) {
      const segment = names ? names[j]! : j;
      path.push(segment);
      if (walk(list ? list[j] : map![segment])) return true;
      path.pop();
    }
    return false;
  };
  return walkEach(properties, 'map') ? schemaPath(path) : undefined;
}

import { _, type KeywordCxt } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * JSON equality of two JSON values, as `const` and `enum` compare them: own keys only, in any order; arrays item by
 * item. A caller's object is read as data, never asked anything: no `valueOf`, `toString` or `constructor` of its
 * own (an object key like any other) is called or compared.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!Object.hasOwn(b, key) || !jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  return true;
}

/** Whether `value` equals a member of `members` ({@link jsonEqual}). */
const isMember = (value: unknown, members: readonly unknown[]): boolean => members.some((member) => jsonEqual(value, member));

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null;

/**
 * Replaces ajv's `const` and `enum` where they compare objects, with {@link jsonEqual}: ajv's deep equality calls a
 * caller's own `valueOf` or `toString` when the object carries one (`{"valueOf": 1}` throws a TypeError out of the
 * check). A primitive is still compared inline (`===`) as ajv does; the errors are ajv's own (keyword, params,
 * message), which the problem wording reads.
 * Applied by `callerValueAjv`. Proven by: test/validation/const-enum.spec.ts
 */
export function jsonEqualConstEnum(ajv: Ajv2020): Ajv2020 {
  ajv.removeKeyword('const');
  ajv.removeKeyword('enum');
  ajv.addKeyword({
    keyword: 'const',
    error: { message: 'must be equal to constant', params: ({ schemaCode }) => _`{allowedValue: ${schemaCode}}` },
    code(cxt: KeywordCxt) {
      const { gen, data, schema, schemaCode } = cxt;
      if (isObject(schema)) cxt.fail(_`!${gen.scopeValue('func', { ref: jsonEqual })}(${data}, ${schemaCode})`);
      else cxt.fail(_`${schema as string | number | boolean | null} !== ${data}`);
    },
  });
  return ajv.addKeyword({
    keyword: 'enum',
    schemaType: 'array',
    error: { message: 'must be equal to one of the allowed values', params: ({ schemaCode }) => _`{allowedValues: ${schemaCode}}` },
    code(cxt: KeywordCxt) {
      const { gen, data, schema, schemaCode } = cxt;
      const members = schema as unknown[];
      if (members.some(isObject)) cxt.fail(_`!${gen.scopeValue('func', { ref: isMember })}(${data}, ${schemaCode})`);
      else cxt.fail(_`!${gen.scopeValue('obj', { ref: new Set(members) })}.has(${data})`);
    },
  });
}

import { describe, expect, it } from '@jest/globals';
import type { ErrorObject } from 'ajv';

import { callerValueAjv } from '../../lib/validation/caller-value-ajv.js';
import { placedSchema } from '../../lib/validation/placed-schema.js';

/** The `additionalProperties` errors a schema's check finds in `value`. */
function refusals(schema: Record<string, unknown>, value: unknown): ErrorObject[] {
  const check = callerValueAjv().compile(schema);
  expect(check(value)).toBe(false);
  return (check.errors ?? []).filter((e) => e.keyword === 'additionalProperties');
}

const closed = (properties: Record<string, unknown>) => ({ type: 'object', properties, additionalProperties: false });

describe('placedSchema', () => {
  it("finds the schema of an error whose path walks down from the root to the error's location, unions included", () => {
    const shape = closed({ kind: { const: 'a' }, title: { type: 'string' } });
    const schema = closed({ list: { type: 'array', items: { oneOf: [shape] } } });
    const [error] = refusals(schema, { list: [{ kind: 'a', titel: 'x' }] });
    expect(error!.schemaPath).toBe('#/properties/list/items/oneOf/0/additionalProperties');
    expect(placedSchema(error!, schema)).toBe(shape);
  });

  it('finds the schema of an error in a definition ajv inlined, its path starting at the definition', () => {
    const target = closed({ userId: { type: 'string' } });
    const schema = { ...closed({ target: { $ref: '#/$defs/target' } }), $defs: { target } };
    const [error] = refusals(schema, { target: { user_id: 'u' } });
    expect(error!.schemaPath).toBe('#/$defs/target/additionalProperties');
    expect(placedSchema(error!, schema)).toBe(target);
  });

  it('finds none where ajv compiled the $ref apart and started the path again at #: the root would be the wrong schema', () => {
    // A recursive definition is compiled apart: its errors' paths start at its own root.
    const schema = {
      ...closed({ title: { type: 'string' }, node: { $ref: '#/$defs/node' } }),
      $defs: { node: closed({ name: { type: 'string' }, child: { $ref: '#/$defs/node' } }) },
    };
    const errors = refusals(schema, { node: { titel: 'x', child: { titel: 'y' } } });
    expect(errors.map((e) => e.schemaPath)).toEqual(['#/additionalProperties', '#/additionalProperties']);
    expect(errors.map((e) => placedSchema(e, schema))).toEqual([undefined, undefined]);
  });

  it('finds none for a path it cannot read', () => {
    const error = { keyword: 'additionalProperties', instancePath: '/a', schemaPath: 'other.json#/additionalProperties', params: {} } as ErrorObject;
    expect(placedSchema(error, {})).toBeUndefined();
    expect(placedSchema({ ...error, schemaPath: '#/properties/a/weird/additionalProperties' }, {})).toBeUndefined();
    expect(placedSchema({ ...error, schemaPath: '#/properties/b/additionalProperties' }, { properties: { b: {} } })).toBeUndefined();
  });
});

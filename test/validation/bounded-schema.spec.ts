import { describe, expect, it, jest } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';

import { itemLimits } from '../../lib/validation/bounded-schema.js';
import { SchemaCompiler } from '../../lib/validation/schema-compiler.js';
import { DETAILED_CHECK_MAX_VALUES, failedBoundedCheck, failedCheck } from '../../lib/validation/value-count.js';
import { fuzzParameters } from '../fuzz/fuzz-support.js';

/** A tool input like most: scalars with formats and limits, closed nested objects, a list under a limit. */
const RECORD = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'tags'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The id' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    tags: { type: 'array', maxItems: 3, uniqueItems: true, items: { type: 'string', maxLength: 4 } },
    address: {
      type: 'object',
      additionalProperties: false,
      properties: { zip: { type: 'string', pattern: '^[0-9]{5}$' }, lines: { type: 'array', maxItems: 2, items: { type: 'string' } } },
    },
    rows: { type: 'array', maxItems: 4, items: { type: 'object', properties: { cells: { type: 'array', maxItems: 2, items: { type: 'integer' } } } } },
  },
};

describe('which schemas are bounded', () => {
  it.each([
    ['scalars, closed objects and lists under maxItems', RECORD],
    ['a boolean schema', true],
    ['open objects, never read below', { type: 'object', properties: { meta: { type: 'object' }, any: true }, additionalProperties: true }],
    ['items reaching the detailed-check bound exactly', { type: 'array', maxItems: DETAILED_CHECK_MAX_VALUES - 1, items: { type: 'integer' } }],
    ['items under a maxItems of 0', { type: 'array', maxItems: 0, items: { type: 'integer' } }],
  ])('%s: bounded', (_what, schema) => {
    expect(itemLimits(schema)).toBeDefined();
  });

  it.each([
    ['items without maxItems', { type: 'array', items: { type: 'integer' } }],
    ['items past the detailed-check bound', { type: 'array', maxItems: 200, items: { type: 'array', maxItems: 50, items: { type: 'integer' } } }],
    ['prefixItems', { type: 'array', maxItems: 2, prefixItems: [{ type: 'integer' }] }],
    ['contains', { type: 'array', maxItems: 2, contains: { type: 'integer' } }],
    ['an additionalProperties schema', { type: 'object', additionalProperties: { type: 'integer' } }],
    ['patternProperties', { type: 'object', patternProperties: { '^a': { type: 'integer' } } }],
    ['propertyNames', { type: 'object', propertyNames: { maxLength: 3 } }],
    ['anyOf', { anyOf: [{ type: 'integer' }, { type: 'string' }] }],
    ['if/then', { if: { type: 'integer' }, then: { minimum: 0 } }],
    ['a $ref', { $defs: { n: { type: 'integer' } }, properties: { a: { $ref: '#/$defs/n' } } }],
    ['unevaluatedProperties', { type: 'object', unevaluatedProperties: false }],
    ['a keyword this library does not know', { type: 'object', 'x-vendor': true }],
    ['an unbounded schema below a property', { type: 'object', properties: { deep: { type: 'object', properties: { list: { type: 'array', items: {} } } } } }],
    ['a maxItems that is not a count', { type: 'array', maxItems: 2.5, items: { type: 'integer' } }],
  ])('%s: not bounded', (_what, schema) => {
    expect(itemLimits(schema)).toBeUndefined();
  });
});

describe('the over-limit check', () => {
  const limits = itemLimits(RECORD)!;

  it('finds the first array over its maxItems, where ajv would report it', () => {
    expect(limits.overLimit({ tags: ['a', 'b', 'c', 'd'] })).toEqual({
      keyword: 'maxItems',
      instancePath: '/tags',
      schemaPath: '#/properties/tags/maxItems',
      params: { limit: 3 },
    });
    expect(limits.overLimit({ rows: [{}, { cells: [1, 2, 3] }] })).toMatchObject({
      instancePath: '/rows/1/cells',
      schemaPath: '#/properties/rows/items/properties/cells/maxItems',
    });
    expect(limits.overLimit({ address: { lines: ['a', 'b', 'c'] } })?.instancePath).toBe('/address/lines');
  });

  it('passes arrays within their limits, values of another type, and keys it does not read', () => {
    expect(limits.overLimit({ tags: ['a', 'b', 'c'], rows: [{ cells: [1, 2] }], address: { lines: ['a'] } })).toBeUndefined();
    expect(limits.overLimit({ tags: 'abcd', rows: { cells: [1, 2, 3] }, address: [1, 2, 3] })).toBeUndefined();
    expect(limits.overLimit(Object.assign(Object.create({ tags: [1, 2, 3, 4] }) as object, { id: 'x' }))).toBeUndefined();
  });

  it('reads into an array through items only: a property named like an index leads nowhere in it, as in ajv', () => {
    const indexed = itemLimits({ type: 'object', properties: { p: { properties: { '0': { type: 'array', maxItems: 1, items: {} } } } } })!;
    expect(indexed.overLimit({ p: [[1, 2]] })).toBeUndefined();
    expect(indexed.overLimit({ p: { 0: [1, 2] } })?.instancePath).toBe('/p/0');
  });

  it('does not look inside an over-limit array: a huge one costs one length read', () => {
    const huge = new Proxy([] as unknown[], { get: (target, key) => (key === 'length' ? 1e9 : Reflect.get(target, key)) });
    const read = jest.fn((target: unknown[], key: string | symbol) => Reflect.get(target, key));
    const watched = new Proxy(huge, { get: read });
    expect(limits.overLimit({ rows: watched })?.params).toEqual({ limit: 4 });
    expect(read.mock.calls.map(([, key]) => key).filter((key) => typeof key === 'string' && /^\d+$/.test(key))).toEqual([]);
  });
});

describe('a bounded check against the two-validator check it replaces', () => {
  const ajv = (allErrors: boolean) => new Ajv2020({ strict: false, allErrors, validateSchema: false, validateFormats: false });
  const all = ajv(true).compile(RECORD);
  const first = ajv(false).compile(RECORD);
  const limits = itemLimits(RECORD)!;
  /** Values near the schema: right and wrong types, lists around their limits. */
  const near = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom<unknown>(null, true, 0, -1, 2.5, 'a', 'abcde', '12345', '00000000-0000-4000-8000-000000000000'),
      fc.array(tie('value'), { maxLength: 6 }),
      fc.dictionary(fc.constantFrom('id', 'age', 'tags', 'address', 'rows', 'cells', 'zip', 'lines'), tie('value'), { maxKeys: 5 }),
    ),
  })).value;

  it('agrees on every value: the same pass or fail, and the same problems', () => {
    fc.assert(
      fc.property(near, (value) => {
        const bounded = failedBoundedCheck(all, limits, value);
        const paired = failedCheck(all, first, value);
        expect(bounded === undefined).toBe(paired === undefined);
        expect(bounded?.errors).toEqual(paired?.errors);
      }),
      fuzzParameters(300),
    );
  });

  it('names one problem, the over-limit array, for a huge value, without collecting the rest', () => {
    const tags = Array.from({ length: 300_000 }, () => 7);
    const run = jest.fn(all);
    const found = failedBoundedCheck(run as unknown as typeof all, limits, { id: 5, tags });
    expect(found).toEqual({ errors: [expect.objectContaining({ keyword: 'maxItems', instancePath: '/tags' })], firstOnly: true });
    expect(run).not.toHaveBeenCalled();
  });

  it('names only the first problem of a huge value within its limits, as the two-validator check does', () => {
    const open = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' }, bulk: { type: 'object' } } };
    const bulk = Object.fromEntries(Array.from({ length: DETAILED_CHECK_MAX_VALUES }, (_, i) => [`k${i}`, 0]));
    const value = { a: 1, b: 2, bulk };
    const found = failedBoundedCheck(ajv(true).compile(open), itemLimits(open)!, value);
    expect(found).toEqual({ errors: [expect.objectContaining({ keyword: 'type', instancePath: '/a' })], firstOnly: true });
    expect(found).toEqual(failedCheck(ajv(true).compile(open), ajv(false).compile(open), value));
  });

  it('names every problem of a small value with an over-limit array, that one included', () => {
    const found = failedBoundedCheck(all, limits, { id: 5, tags: [1, 2, 3, 4] })!;
    expect(found.firstOnly).toBe(false);
    expect(found.errors.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual(['/id type', '/tags maxItems', '/tags/0 type', '/tags/1 type', '/tags/2 type', '/tags/3 type']);
  });
});

describe('compiling a value check', () => {
  it('compiles a bounded schema once, and any other twice', () => {
    const compile = jest.spyOn(Ajv2020.prototype, 'compile');
    try {
      new SchemaCompiler().compileCheck({ type: 'object', properties: { bounded: { type: 'string', maxLength: 9 } } }, 'bounded');
      expect(compile).toHaveBeenCalledTimes(1);
      compile.mockClear();
      new SchemaCompiler().compileCheck({ type: 'object', properties: { open: { type: 'array', items: { type: 'string', maxLength: 9 } } } }, 'unbounded');
      expect(compile).toHaveBeenCalledTimes(2);
    } finally {
      compile.mockRestore();
    }
  });
});

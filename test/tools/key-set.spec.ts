import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';

import type { JsonSchema } from '../../lib/index.js';
import { ANY_STRING_KEY, GATED, KEY_ADMITTING, closeSchema, dataKeyNode, findUnknownKeys, keyNode, schemaOffence } from '../../lib/tools/key-set.js';

const PROPERTIES: Record<string, JsonSchema> = {
  name: { type: 'string' },
  owner: { type: 'object', properties: { id: { type: 'integer' } } },
  sealed: { type: 'object', additionalProperties: false },
  open: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
  free: { type: 'object' },
  labels: { type: 'object', additionalProperties: { type: 'object', properties: { color: { type: 'string' } } } },
  headers: { type: 'object', properties: { host: { type: 'string' } }, patternProperties: { '^x-': { type: 'string' } } },
  items: { type: 'array', items: { type: 'object', properties: { done: { type: 'boolean' } } } },
  pair: { type: 'array', prefixItems: [{ type: 'object', properties: { first: {} } }], items: { type: 'object', properties: { rest: {} } } },
  either: { anyOf: [{ type: 'object', properties: { x: {} } }] },
};
const node = dataKeyNode(PROPERTIES);

describe('the unknown-key gate (key-set closure)', () => {
  it('passes data whose every key is admitted, at every depth', () => {
    expect(
      findUnknownKeys(node, {
        name: 'n',
        owner: { id: 1 },
        sealed: {},
        open: { a: 'x', anything: 1 },
        free: { whatever: { deep: 1 } },
        labels: { red: { color: 'red' } },
        headers: { host: 'h', 'x-trace': '1' },
        items: [{ done: true }],
        pair: [{ first: 1 }, { rest: 2 }],
        either: { y: 1 },
      }),
    ).toBeUndefined();
  });

  it.each([
    ['data itself', { stray: 1 }, 'stray'],
    ['an object that declares properties and no additionalProperties', { owner: { stray: 1 } }, 'owner.stray'],
    ['an object that declares no properties but additionalProperties: false', { sealed: { stray: 1 } }, 'sealed.stray'],
    ['the value of a key an additionalProperties schema admits', { labels: { red: { stray: 1 } } }, 'labels.red.stray'],
    ['a closed object with patternProperties, for a key no pattern matches', { headers: { stray: 1 } }, 'headers.stray'],
    ['each array item through items', { items: [{ done: true }, { stray: 1 }] }, 'items[1].stray'],
    ['a positional item through prefixItems', { pair: [{ stray: 1 }] }, 'pair[0].stray'],
    ['an item past prefixItems through items', { pair: [{ first: 1 }, { first: 1 }] }, 'pair[1].first'],
  ])('refuses an unknown key in %s', (_where, data, path) => {
    expect(findUnknownKeys(node, data)?.unknown).toEqual([path]);
  });

  it('leaves open objects, free-form objects and composition to the value gate', () => {
    expect(findUnknownKeys(node, { open: { b: 1 }, free: { b: 1 }, either: { b: 1 } })).toBeUndefined();
  });

  it('reads keys only: a value of an unexpected type is skipped, not refused', () => {
    expect(findUnknownKeys(node, { owner: 'not an object', items: 'nor an array' })).toBeUndefined();
  });

  it('counts every unknown key and lists the first ten in data-path sort order (indexes numerically)', () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ [`k${i}`]: 1 }));
    const found = findUnknownKeys(node, { items, zzz: 1 })!;
    expect(found.unknown_count).toBe(13);
    expect(found.unknown).toEqual([
      'items[0].k0',
      'items[1].k1',
      'items[2].k2',
      'items[3].k3',
      'items[4].k4',
      'items[5].k5',
      'items[6].k6',
      'items[7].k7',
      'items[8].k8',
      'items[9].k9',
    ]);
  });

  it('lists the first ten unknown keys in data-path order and counts them all, however many there are and in whatever order they come', () => {
    const keys = fc.uniqueArray(fc.stringMatching(/^z[a-z0-9]{0,3}$/), { maxLength: 30 });
    fc.assert(
      fc.property(keys, fc.array(keys, { maxLength: 8 }), keys, (rootKeys, itemKeys, ownerKeys) => {
        const data = {
          ...Object.fromEntries(rootKeys.map((k) => [k, 1])),
          owner: Object.fromEntries(ownerKeys.map((k) => [k, 1])),
          items: itemKeys.map((ks) => Object.fromEntries(ks.map((k) => [k, 1]))),
        };
        // Data-path order: at the root, "items" before "owner" before the z… keys; an item's index numerically.
        const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
        const expected = [
          ...itemKeys.flatMap((ks, i) => [...ks].sort(order).map((k) => `items[${i}].${k}`)),
          ...[...ownerKeys].sort(order).map((k) => `owner.${k}`),
          ...[...rootKeys].sort(order),
        ];
        const found = findUnknownKeys(node, data);
        if (expected.length === 0) return expect(found).toBeUndefined();
        expect(found!.unknown_count).toBe(expected.length);
        expect(found!.unknown).toEqual(expected.slice(0, 10));
      }),
      { numRuns: 500 },
    );
  });

  it('maps every object on the way to a listed key to the keys it admits, with <any string key> where it admits any', () => {
    const found = findUnknownKeys(node, { labels: { red: { shade: 1 } }, headers: { stray: 1 } })!;
    expect(found.allowed).toEqual({
      '': Object.keys(PROPERTIES).sort(),
      headers: ['host', '<key matching "^x-">'],
      labels: [ANY_STRING_KEY],
      'labels.red': ['color'],
    });
  });

  it('keeps an object that declares properties and an additionalProperties schema open to any key, reading other values by that schema', () => {
    const tagged = keyNode({ type: 'object', properties: { id: {} }, additionalProperties: { type: 'object', properties: { v: {} } } })!;
    expect(findUnknownKeys(tagged, { id: 1, extra: { v: 1 } })).toBeUndefined();
    expect(findUnknownKeys(tagged, { extra: { w: 1 } })).toEqual({
      unknown_count: 1,
      unknown: ['extra.w'],
      allowed: { '': ['id', ANY_STRING_KEY], extra: ['v'] },
      nearMisses: [undefined],
    });
  });

  it("names, for each listed key, the property its holder declares that it nearly spells, else ''", () => {
    const people = dataKeyNode({
      firstName: {},
      address: { type: 'object', properties: { zipCode: {}, city: {} } },
      tags: { type: 'array', items: { type: 'object', properties: { label: {} } } },
    });
    const found = findUnknownKeys(people, { first_name: 'a', address: { ZIP_CODE: '1', cty: 'b', country: 'c' }, tags: [{ lable: 'x' }] })!;
    expect(found.unknown).toEqual(['address.ZIP_CODE', 'address.country', 'address.cty', 'first_name', 'tags[0].lable']);
    expect(found.nearMisses).toEqual(['zipCode', undefined, undefined, 'firstName', 'label']);
  });

  it('offers no property the object already holds, nor one that two of its keys nearly spell', () => {
    const people = dataKeyNode({ firstName: {}, lastName: {} });
    expect(findUnknownKeys(people, { firstName: 'a', first_name: 'a' })!.nearMisses).toEqual([undefined]);
    expect(findUnknownKeys(people, { FirstName: 'a', first_name: 'a', last_name: 'b' })!.nearMisses).toEqual([undefined, undefined, 'lastName']);
  });

  it('treats a __proto__ key a caller sent as an ordinary unknown key', () => {
    const data = JSON.parse('{"__proto__": {"polluted": true}, "owner": {"__proto__": 1}}');
    expect(findUnknownKeys(node, data)?.unknown).toEqual(['__proto__', 'owner.__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('bounds and bracket-quotes a long or odd key in a data path', () => {
    const key = `my.key ${'k'.repeat(200)}`;
    const [path] = findUnknownKeys(node, { [key]: 1 })!.unknown;
    expect(path!.length).toBeLessThan(80);
    expect(path).toMatch(/^\["my\.key k+…"\]$/);
  });

  it('reads the value of a key a pattern admits by the pattern schema, at any depth', () => {
    const tagged = keyNode({
      type: 'object',
      patternProperties: { '^t_': { type: 'object', properties: { v: { type: 'array', items: { type: 'object', properties: {} } } } } },
    })!;
    expect(findUnknownKeys(tagged, { t_1: { v: [{}, {}] }, other: 1 })).toBeUndefined();
    expect(findUnknownKeys(tagged, { t_1: { v: [{}, { w: 1 }] } })?.unknown).toEqual(['t_1.v[1].w']);
    expect(findUnknownKeys(tagged, { t_1: { w: 1 } })?.unknown).toEqual(['t_1.w']);
  });

  it('builds no tree below a schema where nothing is ever refused', () => {
    expect(keyNode({ type: 'string' })).toBeUndefined();
    expect(keyNode({ type: 'object' })).toBeUndefined();
    expect(keyNode({ type: 'object', additionalProperties: false })?.closed).toBe(true);
  });
});

describe('publishing the closure', () => {
  it('writes additionalProperties: false exactly where the gate closes by default, and nowhere else', () => {
    expect(closeSchema({ type: 'object', properties: PROPERTIES })).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        ...PROPERTIES,
        owner: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: false },
        labels: { type: 'object', additionalProperties: { type: 'object', properties: { color: { type: 'string' } }, additionalProperties: false } },
        headers: { type: 'object', properties: { host: { type: 'string' } }, patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false },
        items: { type: 'array', items: { type: 'object', properties: { done: { type: 'boolean' } }, additionalProperties: false } },
        pair: {
          type: 'array',
          prefixItems: [{ type: 'object', properties: { first: {} }, additionalProperties: false }],
          items: { type: 'object', properties: { rest: {} }, additionalProperties: false },
        },
      },
    });
  });

  it('closes an object schema a pattern admits, as the gate reads it', () => {
    const schema = { type: 'object', patternProperties: { '^x-': { type: 'object', properties: { v: {} } } } };
    expect(closeSchema(schema)).toEqual({ type: 'object', patternProperties: { '^x-': { type: 'object', properties: { v: {} }, additionalProperties: false } } });
    expect(findUnknownKeys(keyNode(schema)!, { 'x-a': { v: 1, w: 2 } })?.unknown).toEqual(['["x-a"].w']);
  });

  it('never changes the schema it publishes from', () => {
    const schema = { type: 'object', properties: { owner: { type: 'object', properties: {} } } };
    const before = JSON.stringify(schema);
    closeSchema(schema);
    expect(JSON.stringify(schema)).toBe(before);
  });

  it('keeps a property named __proto__ as an own property of the closed copy, at every depth', () => {
    const schema = JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "object", "properties": {"__proto__": {"type": "string"}}}}}');
    const closed = closeSchema(schema) as { properties: Record<string, { properties: object; additionalProperties: boolean }> };
    expect(Object.getPrototypeOf(closed.properties)).toBe(Object.prototype);
    expect(Object.keys(closed.properties)).toEqual(['__proto__']);
    expect(JSON.stringify(closed)).toBe(
      '{"type":"object","properties":{"__proto__":{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}},"additionalProperties":false}',
    );
  });
});

describe('the schema-shape check', () => {
  it.each([
    ['a properties that is not a map', { properties: { a: { type: 'object', properties: [] } } }, '#/properties/a/properties'],
    ['an additionalProperties that is neither boolean nor schema', { properties: { a: { additionalProperties: 'yes' } } }, '#/properties/a/additionalProperties'],
    ['a property schema that is not a schema', { properties: { a: 5 } }, '#/properties/a'],
    ['a malformed schema under an applicator', { properties: { a: { anyOf: [{ properties: 1 }] } } }, '#/properties/a/anyOf/0/properties'],
  ])('names %s by its schema path', (_what, schema, path) => {
    expect(schemaOffence(schema)).toContain(`at ${path}:`);
  });

  it('leaves a list keyword that holds no list to ajv, which names it', () => {
    expect(schemaOffence({ properties: { a: { allOf: 'xy' }, b: { prefixItems: {} } } })).toBeUndefined();
  });

  it('accepts a well-shaped schema', () => {
    expect(schemaOffence({ properties: PROPERTIES })).toBeUndefined();
  });
});

/** A value for each keyword through which an object may admit keys its properties do not name. */
const ADMITTING_VALUES = {
  allOf: [{ properties: { page: { type: 'integer' } } }],
  anyOf: [{ properties: { page: { type: 'integer' } } }],
  oneOf: [{ properties: { page: { type: 'integer' } } }],
  $ref: '#/$defs/paging',
  $dynamicRef: '#paging',
  $recursiveRef: '#',
  if: { properties: { mode: { const: 'file' } } },
  then: { properties: { path: { type: 'string' } } },
  else: { properties: { url: { type: 'string' } } },
  dependentSchemas: { q: { properties: { page: { type: 'integer' } } } },
  dependencies: { q: { properties: { page: { type: 'integer' } } } },
} satisfies Record<(typeof KEY_ADMITTING)[number], unknown>;

/**
 * Every keyword the validator (ajv's 2020-12 dialect) knows that can neither admit a key an object's `properties`
 * do not name nor is followed by the gate: together with the gate's own and {@link KEY_ADMITTING}, the whole list.
 */
const NEITHER = new Set([
  ...['$async', '$dynamicAnchor', '$recursiveAnchor', '$schema', '$id', 'id', '$defs', 'definitions', '$vocabulary', '$comment'],
  ...['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'pattern'],
  ...['maxProperties', 'minProperties', 'required', 'maxItems', 'minItems', 'uniqueItems', 'type', 'nullable', 'const', 'enum'],
  ...['not', 'propertyNames', 'contains', 'format', 'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly'],
  ...['examples', 'contentMediaType', 'contentEncoding', 'contentSchema', 'dependentRequired', 'maxContains', 'minContains'],
  ...['unevaluatedItems'],
]);
/** What the gate follows, and `unevaluatedProperties`, which closes (false) or opens (a schema) the object it is on. */
const FOLLOWED = new Set([...GATED, 'unevaluatedProperties']);

describe('an object that may admit keys through composition, a reference or a conditional', () => {
  it('classifies every keyword the validator knows: followed by the gate, admitting keys (KEY_ADMITTING), or neither', () => {
    const known = Object.keys(new Ajv2020({ strict: false }).RULES.keywords);
    const admitting = new Set<string>(KEY_ADMITTING);
    expect(known.filter((keyword) => [FOLLOWED, admitting, NEITHER].filter((set) => set.has(keyword)).length !== 1)).toEqual([]);
  });

  it.each(KEY_ADMITTING.map((keyword) => [keyword]))('%s: left open (not closed, not published closed) unless additionalProperties: false is written', (keyword) => {
    const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q', 'page'], [keyword]: ADMITTING_VALUES[keyword] };
    expect(keyNode(schema)?.closed ?? false).toBe(false);
    expect(closeSchema(schema)).not.toHaveProperty('additionalProperties');
    expect(schemaOffence(schema)).toBeUndefined(); // `page` may come from the keyword's schema
    const written = { ...schema, additionalProperties: false };
    expect(keyNode(written)?.closed).toBe(true);
    expect(schemaOffence(written)).toContain('required names "page", which properties does not declare');
  });

  it('unevaluatedProperties: a schema leaves the object open, false closes it as additionalProperties: false does', () => {
    const base = { type: 'object', properties: { q: {} } };
    expect(keyNode({ ...base, unevaluatedProperties: { type: 'string' } })?.closed ?? false).toBe(false);
    expect(closeSchema({ ...base, unevaluatedProperties: { type: 'string' } })).not.toHaveProperty('additionalProperties');
    expect(keyNode({ ...base, unevaluatedProperties: false })?.closed).toBe(true);
  });
});

describe('a closed object that requires a key it refuses', () => {
  it.each([
    ['at the root', { type: 'object', properties: { a: {} }, required: ['a', 'b'] }, '#', 'b'],
    ['in a property', { type: 'object', properties: { o: { type: 'object', properties: { a: {} }, required: ['z'] } } }, '#/properties/o', 'z'],
    ['under items', { type: 'object', properties: { l: { type: 'array', items: { type: 'object', properties: {}, required: ['z'] } } } }, '#/properties/l/items', 'z'],
    ['written closed', { type: 'object', additionalProperties: false, required: ['z'] }, '#', 'z'],
  ])('%s: refused, naming the schema path and the key', (_where, schema, path, key) => {
    expect(schemaOffence(schema)).toBe(
      `at ${path}: required names "${key}", which properties does not declare, and the unknown-key gate closes this object to its properties: no call could satisfy both (declare it, or write additionalProperties)`,
    );
  });

  it.each([
    ['a pattern admits it', { type: 'object', properties: {}, patternProperties: { '^x-': {} }, required: ['x-trace'] }],
    ['additionalProperties admits it', { type: 'object', properties: {}, additionalProperties: { type: 'string' }, required: ['z'] }],
    ['the object is free-form', { type: 'object', required: ['z'] }],
    ['the object is in a branch the gate does not read', { type: 'object', properties: { a: {} }, anyOf: [{ type: 'object', properties: {}, required: ['z'] }] }],
    ['a pattern does not compile (ajv refuses the schema, naming the pattern)', { type: 'object', properties: {}, patternProperties: { '^x-(': {} }, required: ['z'] }],
  ])('accepted when %s', (_why, schema) => {
    expect(schemaOffence(schema)).toBeUndefined();
  });
});

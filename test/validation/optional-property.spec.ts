import { describe, expect, it } from '@jest/globals';

import { isOptionalIn, objectSchemaAt, type CheckedAgainst } from '../../lib/validation/optional-property.js';

/** Whether the value at `path` is a property its object leaves optional, as the null wording reads it. */
const isOptionalProperty = (checked: CheckedAgainst, path: readonly (string | number)[]): boolean =>
  path.length > 0 && isOptionalIn(objectSchemaAt(checked, path.slice(0, -1)), String(path.at(-1)));

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    limit: { type: 'integer' },
    page: { $ref: '#/$defs/page' },
    rows: { type: 'array', items: { $ref: '#/$defs/page' } },
    pair: { type: 'array', prefixItems: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }], items: { $ref: '#/$defs/page' } },
    either: { anyOf: [{ $ref: '#/$defs/page' }] },
    loop: { $ref: '#/$defs/loop' },
  },
  required: ['query'],
  $defs: { page: { type: 'object', properties: { size: { type: 'integer' }, cursor: { type: 'string' } }, required: ['cursor'] }, loop: { $ref: '#/$defs/loop' } },
};
const checked = { document: schema, root: schema };

describe('isOptionalProperty', () => {
  it.each([
    ['a property its object does not require', ['limit'], true],
    ['a property its object requires', ['query'], false],
    ['a property behind a $ref', ['page', 'size'], true],
    ['a required property behind a $ref', ['page', 'cursor'], false],
    ["an array item's property", ['rows', 3, 'size'], true],
    ["a tuple item's property, by its own schema", ['pair', 0, 'a'], false],
    ["a property of an item past the tuple's", ['pair', 2, 'size'], true],
    ['an undeclared property', ['other'], false],
    ['a property below a union', ['either', 'size'], false],
    ['a property of a $ref that names only itself', ['loop', 'x'], false],
    ['the root', [], false],
  ] as const)('%s: %s', (_what, path, optional) => {
    expect(isOptionalProperty(checked, path)).toBe(optional);
  });

  it.each([
    ['allOf requiring it', { allOf: [{ required: ['limit'] }] }],
    ['a union whose branches require it', { anyOf: [{ required: ['limit'] }, { required: ['page'] }] }],
    ['oneOf', { oneOf: [{ required: ['limit'] }] }],
    ['a conditional requiring it', { if: { properties: { kind: { const: 'x' } } }, then: { required: ['limit'] } }],
    ['dependentRequired', { dependentRequired: { query: ['limit'] } }],
    ['dependentSchemas', { dependentSchemas: { query: { required: ['limit'] } } }],
    ["draft-07's dependencies", { dependencies: { query: ['limit'] } }],
    ['minProperties it would fall under', { minProperties: 1 }],
    ['not', { not: { required: ['other'] } }],
    ['a $ref beside properties, whose schema requires it', { $ref: '#/$defs/needsLimit' }],
  ] as const)('says nothing of a property whose object holds %s: leaving it out may be refused too', (_what, beside) => {
    const object = { type: 'object', properties: { limit: { type: 'integer' }, query: { type: 'string' } }, ...beside, $defs: { needsLimit: { required: ['limit'] } } };
    expect(isOptionalProperty({ document: object, root: object }, ['limit'])).toBe(false);
    // The same object without it: optional.
    const plain = { type: 'object', properties: { limit: { type: 'integer' }, query: { type: 'string' } } };
    expect(isOptionalProperty({ document: plain, root: plain }, ['limit'])).toBe(true);
  });

  it('keeps what a $ref standing beside required requires, and says nothing past a schema that may reach the member otherwise', () => {
    const reffed = {
      type: 'object',
      properties: { opts: { $ref: '#/$defs/opts', required: ['limit'] } },
      $defs: { opts: { type: 'object', properties: { limit: {}, page: {} } } },
    };
    expect(isOptionalProperty({ document: reffed, root: reffed }, ['opts', 'limit'])).toBe(false);
    expect(isOptionalProperty({ document: reffed, root: reffed }, ['opts', 'page'])).toBe(true);
    const allOfAbove = { type: 'object', properties: { opts: { type: 'object', properties: { limit: {} } } }, allOf: [{ properties: { opts: { required: ['limit'] } } }] };
    expect(isOptionalProperty({ document: allOfAbove, root: allOfAbove }, ['opts', 'limit'])).toBe(false);
    const patternAbove = { type: 'object', properties: { opts: { type: 'object', properties: { limit: {} } } }, patternProperties: { '^o': { required: ['limit'] } } };
    expect(isOptionalProperty({ document: patternAbove, root: patternAbove }, ['opts', 'limit'])).toBe(false);
    // additionalProperties never reaches a declared property: a closed object (as a tool's published schema is) is walked.
    const closed = { type: 'object', properties: { opts: { type: 'object', properties: { limit: {} }, additionalProperties: false } }, additionalProperties: false };
    expect(isOptionalProperty({ document: closed, root: closed }, ['opts', 'limit'])).toBe(true);
  });

  it('starts from a root that is a $ref into the document, as the protocol check names a definition', () => {
    expect(isOptionalProperty({ document: schema, root: { $ref: '#/$defs/page' } }, ['size'])).toBe(true);
    expect(isOptionalProperty({ document: schema, root: { $ref: '#/$defs/page' } }, ['cursor'])).toBe(false);
  });
});

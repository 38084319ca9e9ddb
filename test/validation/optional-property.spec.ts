import { describe, expect, it } from '@jest/globals';

import { isOptionalProperty } from '../../lib/validation/optional-property.js';

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

  it('starts from a root that is a $ref into the document, as the protocol check names a definition', () => {
    expect(isOptionalProperty({ document: schema, root: { $ref: '#/$defs/page' } }, ['size'])).toBe(true);
    expect(isOptionalProperty({ document: schema, root: { $ref: '#/$defs/page' } }, ['cursor'])).toBe(false);
  });
});

import { describe, expect, it } from '@jest/globals';

import { firstSubschemaWhere, SCHEMA_APPLICATORS, someSubschema } from '../../lib/validation/schema-applicators.js';

/** A schema holding one subschema marked `hit` under each applicator, as that applicator holds subschemas. */
function holding(keyword: string, kind: 'one' | 'list' | 'map'): Record<string, unknown> {
  const hit = { title: 'hit' };
  return { [keyword]: kind === 'one' ? hit : kind === 'list' ? [{}, hit] : { first: {}, 'a/b~c': hit } };
}

const isHit = (node: Record<string, unknown>) => node.title === 'hit';

describe('firstSubschemaWhere', () => {
  it.each([...SCHEMA_APPLICATORS])('finds a subschema held by %s (%s), with its escaped schema path', (keyword, kind) => {
    const at = { one: `#/${keyword}`, list: `#/${keyword}/1`, map: `#/${keyword}/a~1b~0c` }[kind];
    expect(firstSubschemaWhere(holding(keyword, kind), isHit)?.at).toBe(at);
  });

  it('finds a subschema under draft-07 dependencies, which ajv applies, passing a name list by', () => {
    expect(firstSubschemaWhere({ dependencies: { a: ['b'], 'c/d': { title: 'hit' } } }, isHit)?.at).toBe('#/dependencies/c~1d');
  });

  it('answers the schema itself first, then its subschemas depth first in key order', () => {
    expect(firstSubschemaWhere({ title: 'hit', not: { title: 'hit' } }, isHit)?.at).toBe('#');
    const schema = { allOf: [{ not: { title: 'hit', n: 1 } }], anyOf: [{ title: 'hit', n: 2 }] };
    expect(firstSubschemaWhere(schema, isHit)).toEqual({ node: { title: 'hit', n: 1 }, at: '#/allOf/0/not' });
  });

  it('goes below only the objects it is let into, and never into values that hold no schema', () => {
    const schema = { properties: { a: { $id: 'https://example.com/a', items: { title: 'hit' } } }, default: { title: 'hit' }, enum: [{ title: 'hit' }] };
    expect(firstSubschemaWhere(schema, isHit, (node) => node.$id === undefined)).toBeUndefined();
    expect(firstSubschemaWhere(schema, isHit)?.at).toBe('#/properties/a/items');
  });
});

describe('someSubschema', () => {
  it('holds no subschema in a list or map of the wrong JSON type', () => {
    const visited: unknown[] = [];
    const visit = (subschema: unknown) => void visited.push(subschema);
    someSubschema('list', { 0: {} }, visit);
    someSubschema('map', [{}], visit);
    expect(visited).toEqual([]);
  });
});

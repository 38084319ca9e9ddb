import { describe, expect, it } from '@jest/globals';

import { typeNamed } from '../../lib/util/type-named.js';

describe('typeNamed: a JSON Schema type as a refusal names it', () => {
  // Every type JSON Schema 2020-12 names (its closed list of simple types).
  it.each([
    ['null', 'null'],
    ['boolean', 'a boolean'],
    ['object', 'an object'],
    ['array', 'an array'],
    ['number', 'a number'],
    ['string', 'a string'],
    ['integer', 'an integer'],
  ])('%s reads "%s"', (type, named) => {
    expect(typeNamed(type)).toBe(named);
  });
});

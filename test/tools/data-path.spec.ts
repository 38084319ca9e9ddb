import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';

import { compareSegments, dataPath, segmentsIn, shapeProblems } from '../../lib/tools/data-path.js';
import { describeSchemaErrors } from '../../lib/validation/schema-problems.js';

describe('a location read against the value it is in', () => {
  it('keeps a digit segment an index in a list, and makes it a key in an object', () => {
    const value = { '0': [{ '1': 'x' }], list: [[1]] };
    expect(segmentsIn(value, [0, 0, 1])).toEqual(['0', 0, '1']);
    expect(dataPath(segmentsIn(value, [0, 0, 1]))).toBe('["0"][0]["1"]');
    expect(segmentsIn(value, ['list', 0, 0])).toEqual(['list', 0, 0]);
    // Past what the value holds, a segment is left as the pointer gave it.
    expect(segmentsIn(value, ['gone', 0])).toEqual(['gone', 0]);
  });
});

describe('a data path', () => {
  it('spells identifiers dotted, indexes bracketed, and any other key as its bracketed JSON string', () => {
    expect(dataPath(['owner', 'email'])).toBe('owner.email');
    expect(dataPath(['items', 2, 'done'])).toBe('items[2].done');
    expect(dataPath(['a.b', 'x'])).toBe('["a.b"].x');
    expect(dataPath([])).toBe('');
  });

  it('escapes every control, separator and bidi character of a key, as JSON escapes C0 and bounding the rest', () => {
    expect(dataPath(['a\nb'])).toBe('["a\\nb"]');
    expect(dataPath(['a\u202eb', 'c\u2028d', 'e\u007ff'])).toBe('["a\\u202eb"]["c\\u2028d"]["e\\u007ff"]');
  });

  it('spells a key of 64 characters whole and cuts a longer one at 64, marking the cut', () => {
    const whole = 'k'.repeat(64);
    expect(dataPath([whole])).toBe(whole);
    expect(dataPath([`${whole}x`])).toBe(`["${'k'.repeat(63)}…"]`);
  });
});

describe('the data-path order', () => {
  const sorted = (paths: (string | number)[][]) => [...paths].sort(compareSegments).map(dataPath);

  it('orders indexes numerically, an index before a key, and a path before its extensions', () => {
    expect(sorted([['items', 10], ['items', 'x'], ['items', 2], ['items'], ['items', 2, 'done'], ['a']])).toEqual([
      'a',
      'items',
      'items[2]',
      'items[2].done',
      'items[10]',
      'items.x',
    ]);
  });

  it('tells every two different paths apart, each pair comparing the opposite way round', () => {
    const paths: (string | number)[][] = [[0], ['a'], ['a', 0], ['a', 'b'], [1, 'a']];
    for (const a of paths)
      for (const b of paths.filter((other) => other !== a)) {
        expect(compareSegments(a, b)).not.toBe(0);
        expect(Math.sign(compareSegments(a, b))).toBe(-Math.sign(compareSegments(b, a)));
      }
  });
});

describe('the problems of a failed protocol-schema check', () => {
  const check = new Ajv2020({ allErrors: true }).compile({
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' }, d: { type: 'string' } },
    required: ['z'],
  });

  it('names the first three by data path, the value itself as (root)', () => {
    expect(check({ a: 1, b: 2, c: 3, d: 4 })).toBe(false);
    expect(check.errors).toHaveLength(5);
    const value = { a: 1, b: 2, c: 3, d: 4 };
    const problems = shapeProblems(describeSchemaErrors(check.errors), value).split('; ');
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^\(root\): /);
    expect(problems.slice(1)).toEqual(['a: must be a string', 'b: must be a string']);
  });

  it('spells an object key of digits as a key, an index of a list as an index', () => {
    const keyed = new Ajv2020({ allErrors: true }).compile({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } });
    const value = { '0': [1] };
    expect(keyed(value)).toBe(false);
    expect(shapeProblems(describeSchemaErrors(keyed.errors), value)).toBe('["0"][0]: must be a string');
  });
});

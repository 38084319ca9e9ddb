import { describe, expect, it } from '@jest/globals';

import { canonicalJson } from '../../lib/util/canonical-json.js';

describe('canonicalJson', () => {
  it('spells equal JSON values alike, whatever their key order, and unequal ones apart', () => {
    expect(canonicalJson({ b: [1, { d: null, c: 'x' }], a: true })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson(JSON.parse('[1.0, "1"]'))).toBe('[1,"1"]');
    expect(new Set([1, '1', [1], { 1: 1 }, null, true, 'true', {}, []].map(canonicalJson)).size).toBe(9);
  });

  it('drops undefined members, writes an undefined item as null, and does not overflow on a deep value', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(canonicalJson(deep)).toHaveLength(200_001);
  });
});

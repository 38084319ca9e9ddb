import { createHash } from 'node:crypto';

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { canonicalDigest } from '../../lib/mrtr/request-binding.js';
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
    // 1e400 parses to Infinity, which JSON.stringify would write as null: a binding must tell them apart.
    expect(canonicalJson(JSON.parse('{"limit":1e400}'))).not.toBe(canonicalJson({ limit: null }));
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(canonicalJson(deep)).toHaveLength(200_001);
  });
});

/** The canonical text written plainly: keys compared with `<` (UTF-16 code units), recursively. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((key) => `${JSON.stringify(key)}:${reference((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('canonicalJson against a plain writer, and the digest of its text', () => {
  it('writes what the plain writer writes, keys of any characters sorted by code unit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const json = JSON.parse(JSON.stringify(value)) as unknown; // -0 and the like as JSON carries them
        expect(canonicalJson(json)).toBe(reference(json));
      }),
      { numRuns: 300 },
    );
  });

  it('digests the canonical text, however many pieces a large value writes', () => {
    const large = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`key ${(i * 7919) % 20_000} é`, [i, { v: 'x'.repeat(i % 13) }]]));
    for (const value of [large, { a: 1 }, []]) {
      const text = canonicalJson(value);
      expect(canonicalDigest(value)).toBe(createHash('sha256').update(text).digest('base64url').slice(0, 22));
    }
    expect(canonicalJson(large).length).toBeGreaterThan(200_000); // several chunks
  });
});

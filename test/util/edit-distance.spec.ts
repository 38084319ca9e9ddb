import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { editsWithin } from '../../lib/util/edit-distance.js';

/** Optimal string alignment distance, computed whole: the reference {@link editsWithin} is checked against. */
function referenceEdits(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

const word = (maxLength: number) => fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength });

describe('editsWithin', () => {
  it('agrees with the whole table on any pair, up to its limit (limit + 1 past it)', () => {
    fc.assert(
      fc.property(word(14), word(14), fc.integer({ min: 0, max: 4 }), (a, b, limit) => {
        expect(editsWithin(a, b, limit)).toBe(Math.min(referenceEdits(a, b), limit + 1));
      }),
      { numRuns: 4000 },
    );
  });

  it('agrees on long names sharing a start and an end, and after a longer pair (its rows are reused)', () => {
    fc.assert(
      fc.property(word(40), word(6), word(6), word(40), fc.integer({ min: 0, max: 3 }), (start, a, b, end, limit) => {
        expect(editsWithin('x'.repeat(300), 'x'.repeat(299) + 'y', 2)).toBe(1);
        expect(editsWithin(start + a + end, start + b + end, limit)).toBe(Math.min(referenceEdits(a, b), limit + 1));
      }),
      { numRuns: 500 },
    );
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editsWithin('emial', 'email', 2)).toBe(1);
    expect(editsWithin('ab', 'ba', 0)).toBe(1);
  });

  it('spends its budget on the characters it compares and the cells it computes, and gives up past it', () => {
    const budget = { steps: 1000 };
    expect(editsWithin('abcdefgh', 'abcdefgx', 2, budget)).toBe(1);
    expect(budget.steps).toBeLessThan(1000);
    expect(editsWithin('q' + 'abc'.repeat(100), 'r' + 'abc'.repeat(100), 2, { steps: 50 })).toBe(3);
    expect(editsWithin('q' + 'abc'.repeat(100), 'r' + 'abc'.repeat(100), 2, { steps: 5000 })).toBe(1);
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { FINITE_NUMBER, holdsNonFiniteNumber, nonFiniteNumbers } from '../../lib/validation/finite-numbers.js';

type Path = (string | number)[];

/** The reference: every non-finite number's path in document order, by plain recursion (test values are shallow). */
function reference(value: unknown, skipped?: object, path: Path = []): Path[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [path];
  if (typeof value !== 'object' || value === null || value === skipped) return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([key, child]) => reference(child, skipped, [...path, key]));
}

/** JSON values in which some numbers are out of range, as `JSON.parse` reads `1e400` and `-1e400`. */
const values = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(Infinity, -Infinity, 0, 1e308, -1.5, null, true, 'Infinity', '1e400'),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.constantFrom('a', 'b', '__proto__', '0', 'x/y'), tie('value'), { maxKeys: 4 }).map((d) => JSON.parse(JSON.stringify(d)) as unknown),
  ),
})).value;

describe('numbers out of range in a parsed JSON value', () => {
  it('finds every non-finite number at its path, in document order, and the cheap walk agrees', () => {
    fc.assert(
      fc.property(values, (value) => {
        const found = nonFiniteNumbers(value);
        expect(found.map((p) => p.path)).toEqual(reference(value));
        expect(found.every((p) => p.problem === FINITE_NUMBER)).toBe(true);
        expect(holdsNonFiniteNumber(value)).toBe(found.length > 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('does not look into the skipped container', () => {
    const args = { n: Infinity, deep: [{ m: -Infinity }] };
    const message = { params: { arguments: args, _meta: { w: Infinity }, list: [1, Infinity, Infinity] } };
    expect(nonFiniteNumbers(message, args).map((p) => p.path)).toEqual([
      ['params', '_meta', 'w'],
      ['params', 'list', 1],
      ['params', 'list', 2],
    ]);
    expect(nonFiniteNumbers(message).map((p) => p.path)).toEqual([
      ['params', 'arguments', 'n'],
      ['params', 'arguments', 'deep', 0, 'm'],
      ['params', '_meta', 'w'],
      ['params', 'list', 1],
      ['params', 'list', 2],
    ]);
    expect(nonFiniteNumbers(Infinity)).toEqual([{ path: [], problem: FINITE_NUMBER }]);
  });

  it('walks nesting far deeper than the stack allows without overflowing', () => {
    const depth = 200_000;
    const deep = JSON.parse(`${'['.repeat(depth)}1e400${']'.repeat(depth)}`) as unknown;
    expect(holdsNonFiniteNumber(deep)).toBe(true);
    expect(nonFiniteNumbers(deep)[0]!.path).toHaveLength(depth);
  });
});

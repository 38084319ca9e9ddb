import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { FINITE_NUMBER, holdsNonFiniteNumber, nonFiniteNumbers, numbersOutOfRange } from '../../lib/validation/finite-numbers.js';
import { DETAILED_CHECK_MAX_ERRORS } from '../../lib/validation/linear-errors.js';
import { DETAILED_CHECK_MAX_PATH_CHARS } from '../../lib/validation/value-count.js';

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

/** A JSON number as a client may spell it, around where doubles end: long digit runs, exponents of any width. */
const spelledNumbers = fc
  .record({
    minus: fc.boolean(),
    digits: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 190, max: 330 })),
    fraction: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
    exponent: fc.option(
      fc.record({
        e: fc.constantFrom('e', 'E'),
        sign: fc.constantFrom('', '+', '-'),
        zeros: fc.integer({ min: 0, max: 2 }),
        value: fc.oneof(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 280, max: 420 })),
      }),
      { nil: undefined },
    ),
    lead: fc.integer({ min: 1, max: 9 }),
  })
  .map(({ minus, digits, fraction, exponent, lead }) => {
    const integer = String(lead) + '9'.repeat(digits - 1);
    const decimals = fraction === undefined ? '' : `.${'9'.repeat(fraction)}`;
    const power = exponent === undefined ? '' : `${exponent.e}${exponent.sign}${'0'.repeat(exponent.zeros)}${exponent.value}`;
    return `${minus ? '-' : ''}${integer}${decimals}${power}`;
  });

describe('the walk the parse step makes of a body, once parsed', () => {
  it('finds a number out of range exactly when one of the numbers the text spells is', () => {
    const items = fc.array(
      fc.oneof(
        spelledNumbers,
        fc.string().map((t) => JSON.stringify(t)),
        fc.constantFrom('"e100"', 'true', 'null'),
      ),
      { minLength: 1, maxLength: 6 },
    );
    let outOfRange = 0;
    fc.assert(
      fc.property(items, (spelled) => {
        const expected = spelled.some((item) => /^-?[0-9]/.test(item) && !Number.isFinite(Number(item)));
        if (expected) outOfRange++;
        expect(holdsNonFiniteNumber(JSON.parse(`{"params":{"a":[${spelled.join(',')}]}}`))).toBe(expected);
      }),
      { numRuns: 5000 },
    );
    expect(outOfRange).toBeGreaterThan(500);
  });

  it('is not fooled at the edges: a long digit run or a wide exponent that still fits, or one in a string', () => {
    expect(holdsNonFiniteNumber(JSON.parse('{"jsonrpc":"2.0","id":1,"params":{"x":1.5e10,"y":-2E-300,"z":"line12"}}'))).toBe(false);
    expect(holdsNonFiniteNumber(JSON.parse(`[${'9'.repeat(300)},1e308,"1e400"]`))).toBe(false);
    expect(holdsNonFiniteNumber(JSON.parse('[1E+0309]'))).toBe(true);
    expect(holdsNonFiniteNumber(JSON.parse(`[${'9'.repeat(210)}e99]`))).toBe(true);
  });
});

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

  it('looks for none when the text proved them in range, and not into the skipped container', () => {
    const args = { n: Infinity };
    const message = { params: { arguments: args, _meta: { w: -Infinity } } };
    expect(numbersOutOfRange(message).problems.map((p) => p.path)).toEqual([
      ['params', 'arguments', 'n'],
      ['params', '_meta', 'w'],
    ]);
    expect(numbersOutOfRange(message, { skipped: args }).problems.map((p) => p.path)).toEqual([['params', '_meta', 'w']]);
    expect(numbersOutOfRange(message, { inRange: true })).toEqual({ problems: [], firstOnly: false });
    expect(numbersOutOfRange({ params: { a: [1, 2] } })).toEqual({ problems: [], firstOnly: false });
  });

  it('locates up to DETAILED_CHECK_MAX_ERRORS of them, past it the first only (the detailed-check bound)', () => {
    const at = (count: number) => ({ params: { deep: { list: new Array(count).fill(Infinity) } } });
    const all = numbersOutOfRange(at(DETAILED_CHECK_MAX_ERRORS));
    expect(all.firstOnly).toBe(false);
    expect(all.problems).toHaveLength(DETAILED_CHECK_MAX_ERRORS);
    expect(all.problems.at(-1)!.path).toEqual(['params', 'deep', 'list', DETAILED_CHECK_MAX_ERRORS - 1]);
    expect(numbersOutOfRange(at(DETAILED_CHECK_MAX_ERRORS + 1))).toEqual({ problems: [{ path: ['params', 'deep', 'list', 0], problem: FINITE_NUMBER }], firstOnly: true });
    expect(nonFiniteNumbers(at(50), undefined, 3).map((p) => p.path.at(-1))).toEqual([0, 1, 2]); // stops walking there
    // Past the bound it walks no further: what follows the 1,001st number is never entered.
    const trap = {
      get entered(): never {
        throw new Error('walked past the bound');
      },
    };
    const value = { n: Infinity, list: new Array(DETAILED_CHECK_MAX_ERRORS).fill(Infinity), after: trap };
    expect(numbersOutOfRange(value)).toEqual({ problems: [{ path: ['n'], problem: FINITE_NUMBER }], firstOnly: true });
  });

  it('locates them all only while their locations spell at most DETAILED_CHECK_MAX_PATH_CHARS characters together, as a failed check does', () => {
    // 500 numbers under one key: "/" and the key, then "/" and an index of up to three digits, each.
    const under = (key: string) => ({ [key]: new Array(500).fill(Infinity) });
    const within = numbersOutOfRange(under('k'.repeat(DETAILED_CHECK_MAX_PATH_CHARS / 500 - 1 - 4)));
    expect(within.firstOnly).toBe(false);
    expect(within.problems).toHaveLength(500);
    // A thousand numbers 120 levels down, under keys of 300 characters: describing each cost 300 ms a request.
    let deep: unknown = new Array(DETAILED_CHECK_MAX_ERRORS).fill(Infinity);
    for (let i = 0; i < 120; i++) deep = { ['k'.repeat(300)]: deep };
    const over = numbersOutOfRange(deep);
    expect(over.firstOnly).toBe(true);
    expect(over.problems).toHaveLength(1);
    expect(over.problems[0]!.path).toHaveLength(121);
  });

  it('walks nesting far deeper than the stack allows without overflowing', () => {
    const depth = 200_000;
    const deep = JSON.parse(`${'['.repeat(depth)}1e400${']'.repeat(depth)}`) as unknown;
    expect(holdsNonFiniteNumber(deep)).toBe(true);
    expect(nonFiniteNumbers(deep)[0]!.path).toHaveLength(depth);
  });
});

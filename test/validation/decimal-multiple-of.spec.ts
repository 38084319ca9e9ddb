import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { callerValueAjv } from '../../lib/validation/caller-value-ajv.js';
import { isDecimalMultiple } from '../../lib/validation/decimal-multiple-of.js';

describe('isDecimalMultiple: multipleOf decided in decimal, on each number’s shortest spelling', () => {
  it.each([
    [19.99, 0.01],
    [0.07, 0.01],
    [0.3, 0.1],
    [0.7, 0.1],
    [-19.99, 0.01],
    [0, 0.01],
    [4.5, 1.5],
    [0.0075, 0.0001], // JSON-Schema-Test-Suite: "by small number"
    [12391239123, 1e-8], // "small multiple of large integer"
    [1e-7, 1e-8],
    [1e21, 5],
    [10, 2],
  ])('%p is a multiple of %p', (value, divisor) => {
    expect(isDecimalMultiple(value, divisor)).toBe(true);
  });

  it.each([
    [19.999, 0.01],
    [0.30000000000000004, 0.1],
    [0.00751, 0.0001],
    [1e308, 0.123456789], // "float division = inf": the quotient overflows, the answer is still no
    [1e16, 3], // binary division rounds the quotient to an integer
    [1e21, 7],
    [35, 1.5],
    [11, 2],
    [Infinity, 1],
  ])('%p is not a multiple of %p', (value, divisor) => {
    expect(isDecimalMultiple(value, divisor)).toBe(false);
  });
});

/** The definition spelled out: both numbers as decimals (shortest spelling), the quotient an integer. */
function referenceMultiple(value: number, divisor: number): boolean {
  if (!Number.isFinite(value)) return false;
  const spelled = (n: number): [bigint, number] => {
    const [mantissa, power = '0'] = String(Math.abs(n)).split('e');
    const [whole, fraction = ''] = mantissa!.split('.');
    return [BigInt(whole! + fraction), Number(power) - fraction.length];
  };
  const [digits, exponent] = spelled(value);
  const [divisorDigits, divisorExponent] = spelled(divisor);
  const shift = exponent - divisorExponent;
  return shift >= 0 ? (digits * 10n ** BigInt(shift)) % divisorDigits === 0n : digits % (divisorDigits * 10n ** BigInt(-shift)) === 0n;
}

describe('isDecimalMultiple against the definition', () => {
  const divisors = fc.oneof(fc.constantFrom(0.01, 0.1, 1, 10, 0.25, 0.3, 1.5, 3, 7, 1e-8, 5e-324, 1e308), fc.double({ min: 5e-324, noNaN: true, noDefaultInfinity: true }));
  const values = fc.oneof(
    fc.double({ noNaN: true }),
    fc.integer(),
    fc.constantFrom(1e308, -1.7976931348623157e308, 2 ** 60, 19.99, 0.07, 5e-324, 0),
    fc.integer({ min: -1e6, max: 1e6 }).map((cents) => cents / 100),
  );

  it('agrees on any value and divisor, the last divisor and the powers of ten kept between calls', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(values, divisors), { minLength: 1, maxLength: 8 }), (pairs) => {
        for (const [value, divisor] of pairs) expect(isDecimalMultiple(value, divisor)).toBe(referenceMultiple(value, divisor));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('a caller-value schema with multipleOf', () => {
  const check = callerValueAjv().compile({ type: 'object', properties: { price: { type: 'number', multipleOf: 0.01 } } });

  it('admits a price in cents, which binary division refuses (19.99 / 0.01 = 1998.9999999999998)', () => {
    expect(19.99 / 0.01).not.toBe(1999);
    expect(check({ price: 19.99 })).toBe(true);
  });

  it('refuses a value that is no multiple with ajv’s own multipleOf error, at its place', () => {
    expect(check({ price: 19.999 })).toBe(false);
    expect(check.errors).toEqual([expect.objectContaining({ keyword: 'multipleOf', params: { multipleOf: 0.01 }, instancePath: '/price' })]);
  });
});

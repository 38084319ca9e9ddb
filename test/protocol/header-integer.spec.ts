import { describe, expect, it } from '@jest/globals';

import { headerIntegerEquals } from '../../lib/protocol/header-integer.js';

describe('headerIntegerEquals: a mirrored header spelling a body integer', () => {
  it.each([
    ['42', 42],
    ['42.0', 42],
    ['4.2e1', 42],
    ['420E-1', 42],
    ['4.2e+1', 42],
    ['0042', 42],
    ['-0', 0],
    ['0.000', 0],
    ['-17', -17],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
    ['9.007199254740991e15', Number.MAX_SAFE_INTEGER],
    ['42e000000', 42],
  ])('takes %s as %d', (text, integer) => {
    expect(headerIntegerEquals(text, integer)).toBe(true);
  });

  it.each([
    ['42.0000000000000001', 42],
    ['4.25e1', 42],
    ['43', 42],
    ['-42', 42],
    ['42 ', 42],
    ['42.', 42],
    ['0x2a', 42],
    ['4.2e1000000', 42],
    ['90071992547409910', 9007199254740991],
    ['0', 42],
    ['-0.000e5', 7],
    ['0e1000000', 0],
  ])('refuses %s for %d', (text, integer) => {
    expect(headerIntegerEquals(text, integer)).toBe(false);
  });

  // 10n ** 999999n alone takes tens of milliseconds: a value with more digits than a safe integer is refused unbuilt.
  it('refuses a value of more digits than any safe integer without building it', () => {
    const started = performance.now();
    for (let i = 0; i < 50; i++) expect(headerIntegerEquals('1e999999', 1)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  // A quadratic trim of the zeros would take minutes on these; each is read in one pass.
  it.each([
    ['1, a million zeros, 1', `1${'0'.repeat(1_000_000)}1`, 11],
    ['1 and a million trailing zeros', `1${'0'.repeat(1_000_000)}`, 1],
    ['a million leading zeros, 7', `${'0'.repeat(1_000_000)}7`, 7],
    ['7, a fraction of a million zeros', `7.${'0'.repeat(1_000_000)}`, 7],
  ])('reads %s in one pass', (_shape, text, integer) => {
    expect(headerIntegerEquals(text, integer)).toBe(integer === 7);
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { EDIT_SCAN_MAX, NearMisses, meantHint, nearMiss } from '../../lib/util/near-miss.js';

const ALLOWED = ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

describe('nearMiss', () => {
  it.each([
    ['another case', 'readonlyhint', 'readOnlyHint'],
    ['snake case', 'open_world_hint', 'openWorldHint'],
    ['a prefix', 'readOnly', 'readOnlyHint'],
    ['a prefix of four letters, the shortest that counts', 'dest', 'destructiveHint'],
    ['a prefix in another case', 'Destructive', 'destructiveHint'],
    ['an allowed name with a tail', 'titles', 'title'],
    ['an allowed name with a long tail', 'readOnlyHintFlag', 'readOnlyHint'],
    ['a typo', 'idempotentHnit', 'idempotentHint'],
    ['two edits', 'idempotencyHint', 'idempotentHint'],
    ['two neighbours swapped, one edit', 'tilte', 'title'],
    ['a swap and a typo, two edits', 'tilteX', 'title'],
  ])('finds the name a refused one nearly spells: %s', (_case, name, meant) => {
    expect(nearMiss(name, ALLOWED)).toBe(meant);
  });

  it.each([
    ['a name far from all', 'audience'],
    ['a short prefix', 'rea'],
    ['three edits', 'tilte_xyz'],
  ])('finds none for %s', (_case, name) => {
    expect(nearMiss(name, ALLOWED)).toBeUndefined();
  });

  it('reaches as far as it is told: no prefixes, at most one edit', () => {
    const reach = { prefixes: false, maxEdits: 1 };
    expect(nearMiss('readOnly', ALLOWED, reach)).toBeUndefined();
    expect(nearMiss('tilte', ALLOWED, reach)).toBe('title');
    expect(nearMiss('idempotencyHint', ALLOWED, reach)).toBeUndefined();
  });

  it('counts a name spelled otherwise (case, _ and -) as the same name, no edit needed', () => {
    expect(nearMiss('open_world-hint', ALLOWED, { prefixes: false, maxEdits: 0 })).toBe('openWorldHint');
  });

  it('takes the first allowed name of those equally near', () => {
    expect(nearMiss('abcx', ['abcd', 'abce'])).toBe('abcd');
    expect(nearMiss('abcx', ['abce', 'abcd'])).toBe('abce');
  });
});

/** Optimal string alignment distance, computed whole: the reference {@link NearMisses} is checked against. */
function referenceEdits(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

describe('NearMisses (what a caller sent)', () => {
  const KEYS = new NearMisses(['firstName', 'lastName', 'email', 'action', 'search_docs', 'to', 'data']);

  it.each([
    ['snake case for camel case', 'first_name', 'firstName'],
    ['another case', 'EMAIL', 'email'],
    ['one edit in a name of four to seven characters', 'acton', 'action'],
    ['two neighbours swapped (one edit)', 'emial', 'email'],
    ['two edits in a name of eight or more', 'serch_docz', 'search_docs'],
  ])('finds the one name a refused one nearly spells: %s', (_case, name, meant) => {
    expect(KEYS.meant(name)).toBe(meant);
    expect(meantHint(name, KEYS)).toBe(` (did you mean ${JSON.stringify(meant)}?)`);
  });

  it.each([
    ['a name of three characters or fewer, one edit away', 'tp'],
    ['a name of three characters, one edit away', 'dta'],
    ['two edits in a name under eight characters', 'emaill2'],
    ['three edits in a long name', 'seerch_dcz'],
    ['a name far from all', 'audience'],
  ])('finds none for %s', (_case, name) => {
    expect(KEYS.meant(name)).toBeUndefined();
    expect(meantHint(name, KEYS)).toBe('');
  });

  it('finds none where two names are equally near: a wrong guess would send the caller astray', () => {
    expect(new NearMisses(['abcd', 'abce']).meant('abcx')).toBeUndefined();
    expect(new NearMisses(['userId', 'user_id']).meant('USERID')).toBeUndefined();
    expect(new NearMisses(['abcd', 'abcxyz']).meant('abcx')).toBe('abcd');
  });

  it('looks at no name longer than 256 characters, even one spelled as an allowed name', () => {
    const long = 'x'.repeat(300);
    expect(new NearMisses([long]).meant(long.toUpperCase())).toBeUndefined();
    expect(new NearMisses(['y'.repeat(256)]).meant('Y'.repeat(256))).toBe('y'.repeat(256));
  });

  it(`past ${EDIT_SCAN_MAX} names finds only a name spelled otherwise, not one some edits away`, () => {
    const many = Array.from({ length: EDIT_SCAN_MAX + 1 }, (_, i) => `tool_number_${i}`);
    expect(new NearMisses(many).meant('TOOL-NUMBER-7')).toBe('tool_number_7');
    expect(new NearMisses(many).meant('tool_numbr_7')).toBeUndefined();
    expect(new NearMisses(many.slice(0, EDIT_SCAN_MAX)).meant('tool_numbr_7')).toBe('tool_number_7');
  });

  it('agrees with the whole edit-distance computation on any pair of names', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_'), maxLength: 12 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 12 }),
        (sent, allowed) => {
          const wanted = sent.replace(/_/g, '');
          const limit = wanted.length >= 8 ? 2 : wanted.length >= 4 ? 1 : 0;
          const expected = wanted === allowed || referenceEdits(wanted, allowed) <= limit ? allowed : undefined;
          expect(new NearMisses([allowed]).meant(sent)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

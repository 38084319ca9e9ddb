import { describe, expect, it } from '@jest/globals';

import { nearMiss } from '../../lib/util/near-miss.js';

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

import { describe, expect, it } from '@jest/globals';

import { firstListed } from '../../lib/util/first-listed.js';

describe('firstListed: how a refusal lists what is served or allowed', () => {
  it('lists every item when there are at most max', () => {
    expect(firstListed(['a', 'b'], 2)).toBe('a, b');
    expect(firstListed([], 2)).toBe('');
  });

  it('lists the first max, then an ellipsis, counting them all when asked', () => {
    expect(firstListed(['a', 'b', 'c'], 2)).toBe('a, b, …');
    expect(firstListed(['a', 'b', 'c'], 2, { counted: true })).toBe('a, b, … (3 in all)');
  });

  it('spells only the items it shows', () => {
    const spelled: number[] = [];
    const listing = firstListed([1, 2, 3, 4], 2, { spell: (n) => (spelled.push(n), `#${n}`) });
    expect(listing).toBe('#1, #2, …');
    expect(spelled).toEqual([1, 2]);
  });
});

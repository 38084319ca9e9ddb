import { describe, expect, it } from '@jest/globals';

import { NEAR_MISS_STEPS, NearMisses, didYouMean, nearMiss, nearMissesOf, offeredNearMisses } from '../../lib/util/near-miss.js';

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

describe('NearMisses (what a caller sent)', () => {
  const KEYS = new NearMisses(['firstName', 'lastName', 'email', 'action', 'search_docs', 'to', 'data', 'name', 'first_name_x']);

  it.each([
    ['snake case for camel case', 'first_name', 'firstName'],
    ['another case', 'EMAIL', 'email'],
    ['one edit in a name of four to seven characters', 'acton', 'action'],
    ['two neighbours swapped (one edit)', 'emial', 'email'],
    ['two edits in a name of eight or more', 'serch_docz', 'search_docs'],
    ["a server's prefix", 'notes.search_docs', 'search_docs'],
    ["a client's prefix, spelled otherwise", 'mcp__notes__Search-Docs', 'search_docs'],
    ['a path prefix', 'docs/search_docs', 'search_docs'],
  ])('finds the one name a refused one nearly spells: %s', (_case, name, meant) => {
    expect(KEYS.meant(name)).toBe(meant);
    expect(didYouMean(KEYS.meant(name))).toBe(` (did you mean ${JSON.stringify(meant)}?)`);
  });

  it.each([
    ['a name of three characters or fewer, one edit away', 'tp'],
    ['a name of three characters, one edit away', 'dta'],
    ['two edits in a name under eight characters', 'emaill2'],
    ['three edits in a long name', 'seerch_dcz'],
    ['its first letter dropped (another word, often)', 'mail'],
    ['its first letter changed', 'fction'],
    ['a name far from all', 'audience'],
    ['a prefix before a name that is only near an allowed one', 'notes.serch_docs'],
  ])('finds none for %s', (_case, name) => {
    expect(KEYS.meant(name)).toBeUndefined();
    expect(didYouMean(KEYS.meant(name))).toBe('');
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

  it(`spends at most its budget (${NEAR_MISS_STEPS} steps by default), past which it finds none but a name spelled otherwise`, () => {
    // Every name shares its start with what is sent, so each comparison walks it: more than the budget in all.
    const many = Array.from({ length: 2000 }, (_, i) => `customer_billing_address_line_${String(i).padStart(4, '0')}`);
    const nearMisses = new NearMisses(many);
    const budget = { steps: NEAR_MISS_STEPS };
    expect(nearMisses.meant('customer_billing_address_lin_1990', budget)).toBeUndefined();
    expect(budget.steps).toBeLessThan(0);
    expect(nearMisses.meant('customer_billing_address_lin_1990', { steps: Infinity })).toBe('customer_billing_address_line_1990');
    expect(nearMisses.meant('CUSTOMER-BILLING-ADDRESS-LINE-1999', { steps: 0 })).toBe('customer_billing_address_line_1999');
    expect(new NearMisses(many.slice(0, 100)).meant('customer_billing_address_lin_0090')).toBe('customer_billing_address_line_0090');
  });

  it('quotes the name it offers bounded, as a refusal quotes any name', () => {
    expect(didYouMean('amount\u202edue')).toBe(' (did you mean "amount\\u202edue"?)');
    expect(didYouMean('a'.repeat(100))).toBe(` (did you mean "${'a'.repeat(63)}…"?)`);
  });

  it('keeps one list per map or record of names, built on its first lookup', () => {
    const actions = new Map([['create', 1]]);
    expect(nearMissesOf(actions)).toBe(nearMissesOf(actions));
    expect(nearMissesOf(actions).meant('craete')).toBe('create');
    expect(nearMissesOf({ action: 'string', data: 'object' }).meant('acton')).toBe('action');
  });
});

describe('NearMisses keeping digits (resource URIs)', () => {
  const uris = new NearMisses(['file:///logs/2026-01-01.log', 'db://users/1041', 'notes://readme'], true);

  it('offers none that spells other digits: another day, another record, not a misspelling', () => {
    expect(uris.meant('file:///logs/2026-01-02.log')).toBeUndefined();
    expect(uris.meant('file:///logs/2026-01-10.log')).toBeUndefined();
    expect(uris.meant('db://users/1047')).toBeUndefined();
    expect(new NearMisses(['file:///logs/2026-01-01.log']).meant('file:///logs/2026-01-02.log')).toBe('file:///logs/2026-01-01.log');
  });

  it('still offers a URI misspelled in its letters, or spelled otherwise', () => {
    expect(uris.meant('notes://raedme')).toBe('notes://readme');
    expect(uris.meant('file:///logs/2026-01-01.lgo')).toBe('file:///logs/2026-01-01.log');
    expect(uris.meant('DB://USERS/1041')).toBe('db://users/1041');
  });
});

describe('offeredNearMisses (the near misses one refusal offers)', () => {
  const among = new NearMisses(['firstName', 'lastName', 'email']);

  it('offers each listed name its near miss, in the order listed', () => {
    const sent = { first_name: 'Ada', lastname: 'L', phone: '1' };
    const unknown = Object.keys(sent).map((name) => ({ name, among, sentIn: sent }));
    expect(offeredNearMisses(unknown)).toEqual(['firstName', 'lastName', undefined]);
  });

  it('offers no name the object it was sent in already holds', () => {
    const sent = { firstName: 'Ada', first_name: 'Ada' };
    expect(offeredNearMisses([{ name: 'first_name', among, sentIn: sent }])).toEqual([undefined]);
  });

  it('offers neither of two names sent in one object that nearly spell the same name, but each in its own object', () => {
    const one = { first_name: 'Ada', FirstName: 'Ada' };
    expect(offeredNearMisses(Object.keys(one).map((name) => ({ name, among, sentIn: one })))).toEqual([undefined, undefined]);
    const [a, b] = [{ first_name: 'Ada' }, { FirstName: 'Ada' }];
    expect(
      offeredNearMisses([
        { name: 'first_name', among, sentIn: a },
        { name: 'FirstName', among, sentIn: b },
      ]),
    ).toEqual(['firstName', 'firstName']);
  });

  it(`shares one budget of ${NEAR_MISS_STEPS} steps among the lookups`, () => {
    // Each name shares its start with what is sent: one lookup walks them all, spending about two thirds of the budget.
    const many = new NearMisses(Array.from({ length: 800 }, (_, i) => `customer_billing_address_line_${String(i).padStart(4, '0')}`));
    const sent = {};
    const lookup = (name: string) => ({ name, among: many, sentIn: sent });
    expect(offeredNearMisses([lookup('customer_billing_address_lin_0002')])).toEqual(['customer_billing_address_line_0002']);
    expect(offeredNearMisses([lookup('customer_billing_address_lin_0001'), lookup('customer_billing_address_lin_0002')])).toEqual([
      'customer_billing_address_line_0001',
      undefined,
    ]);
  });
});

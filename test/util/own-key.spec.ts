import { runInNewContext } from 'node:vm';

import { describe, expect, it } from '@jest/globals';

import { ownCopy, ownJsonCopy, setOwnKey } from '../../lib/util/own-key.js';

describe('setOwnKey', () => {
  it.each(['id', '__proto__', 'toString', 'constructor', 'hasOwnProperty'])('gives a plain object an own, enumerable data key %s', (key) => {
    const target: Record<string, unknown> = {};
    setOwnKey(target, key, { held: key });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(target, key)).toEqual({ value: { held: key }, enumerable: true, writable: true, configurable: true });
    expect(Object.keys(target)).toEqual([key]);
    expect(JSON.parse(JSON.stringify(target))).toEqual(JSON.parse(`{${JSON.stringify(key)}: {"held": ${JSON.stringify(key)}}}`));
  });

  it('replaces a key it set before, in place', () => {
    const target: Record<string, unknown> = { a: 1 };
    setOwnKey(target, 'b', 2);
    setOwnKey(target, 'a', 3);
    expect(Object.entries(target)).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('defines a key Object.prototype holds, so a frozen Object.prototype (hardened hosts) cannot make it throw', () => {
    // The same function in a realm whose Object.prototype is frozen, where assigning `toString` throws in strict code.
    const own = runInNewContext(
      `'use strict'; Object.freeze(Object.prototype); const setOwnKey = ${setOwnKey.toString()}; (key) => { const o = {}; setOwnKey(o, key, 1); return Object.keys(o); }`,
    ) as (key: string) => string[];
    expect(own('toString')).toEqual(['toString']);
    expect(own('id')).toEqual(['id']);
    expect(() => runInNewContext(`'use strict'; Object.freeze(Object.prototype); ({}).toString = 1;`)).toThrow(/read only/);
  });
});

// ownJsonCopy is ownCopy without the symbol keys (which JSON never writes).
describe.each([
  ['ownCopy', ownCopy, ['b', 'a', 'c', Symbol.for('s')]],
  ['ownJsonCopy', ownJsonCopy, ['b', 'a', 'c']],
])('%s', (_name, copyOf, keys) => {
  it('copies the own enumerable keys, in order, into a new plain object the source does not share', () => {
    const source: Record<string, unknown> = { b: 1, a: { deep: true }, [Symbol.for('s')]: 2 };
    Object.defineProperty(source, 'hidden', { value: 3, enumerable: false });
    const copy = copyOf(source);
    copy.c = 4;
    expect(copy).not.toBe(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Reflect.ownKeys(copy)).toEqual(keys);
    expect(copy.a).toBe(source.a);
    expect(source).not.toHaveProperty('c');
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...source, c: 4 }));
  });
});

describe('ownCopy', () => {
  it('keeps a __proto__ key JSON carried as an own key, never as the prototype', () => {
    const source = JSON.parse('{"a": 1, "__proto__": {"polluted": true}}') as Record<string, unknown>;
    const copy = ownCopy(source);
    copy.b = 2;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['a', '__proto__', 'b']);
    expect(JSON.stringify(copy)).toBe('{"a":1,"__proto__":{"polluted":true},"b":2}');
  });

  it('copies a key Object.prototype holds without throwing, even where Object.prototype is frozen (hardened hosts)', () => {
    const copyKeys = runInNewContext(
      `'use strict'; Object.freeze(Object.prototype); const setOwnKey = ${setOwnKey.toString()}; const ownJsonCopy = ${ownJsonCopy.toString()};` +
        ` const ownCopy = ${ownCopy.toString()};` +
        ` (json) => { const copy = ownCopy(JSON.parse(json)); copy.added = true; return JSON.stringify(copy); }`,
    ) as (json: string) => string;
    expect(copyKeys('{"toString":1,"constructor":2,"valueOf":3,"id":4}')).toBe('{"toString":1,"constructor":2,"valueOf":3,"id":4,"added":true}');
  });
});

describe('ownJsonCopy', () => {
  it('keeps a __proto__ key JSON carried as an own key, never as the prototype', () => {
    const copy = ownJsonCopy(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });
});

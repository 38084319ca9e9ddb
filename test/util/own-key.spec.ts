import { describe, expect, it } from '@jest/globals';

import { setOwnKey } from '../../lib/util/own-key.js';

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
});

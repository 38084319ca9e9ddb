import { runInNewContext } from 'node:vm';

import { describe, expect, it } from '@jest/globals';

import { faultKind } from '../../lib/errors/fault-containment.js';

describe('faultKind names what was thrown without running its code', () => {
  it.each([
    ['an Error subclass', new RangeError('x'), 'RangeError'],
    ['an Error from another realm', runInNewContext('new TypeError("x")'), 'TypeError'],
    ['a class extending Error', new (class DatabaseDown extends Error {})('x'), 'DatabaseDown'],
    [
      'a Proxy whose traps throw',
      new Proxy(
        {},
        {
          getPrototypeOf: () => {
            throw new Error('trap');
          },
          get: () => {
            throw new Error('trap');
          },
        },
      ),
      'Proxy',
    ],
    ['a string', 'boom', 'string'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['a plain object', { message: 'x' }, 'object'],
  ])('%s', (_what, thrown, kind) => {
    expect(faultKind(thrown)).toBe(kind);
  });
});

import { runInNewContext } from 'node:vm';

import { describe, expect, it } from '@jest/globals';

import { PASSES_CONTAINMENT, faultKind, faultStack, passesContainment } from '../../lib/errors/fault-containment.js';

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

describe('faultKind of an Error that names itself oddly', () => {
  it('says Error for one whose class and name are both empty, and bounds a long class name to 60 characters', () => {
    const nameless = new (class extends Error {})('x');
    Object.defineProperty(nameless, 'name', { value: '' });
    expect(faultKind(nameless)).toBe('Error');
    const name = `E${'x'.repeat(99)}`;
    const LongNamed = { [name]: class extends Error {} }[name]!; // a class takes the name of the key it is defined under
    expect(faultKind(new LongNamed('x'))).toBe(`E${'x'.repeat(58)}…`);
  });
});

describe('passesContainment', () => {
  it('lets through only a value marked with true, not another truthy mark', () => {
    expect([{ [PASSES_CONTAINMENT]: true }, { [PASSES_CONTAINMENT]: 1 }, { [PASSES_CONTAINMENT]: 'yes' }, null].map(passesContainment)).toEqual([true, false, false, false]);
  });
});

describe('faultStack', () => {
  it('bounds a logged stack to 16,384 characters', () => {
    const fault = new Error('deep');
    fault.stack = `Error: deep${'\n    at frame (file.js:1:1)'.repeat(1000)}`;
    expect(faultStack(fault)).toHaveLength(16_384);
  });
});

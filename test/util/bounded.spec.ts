import { runInNewContext } from 'node:vm';

import { describe, expect, it } from '@jest/globals';

import { faultMessage } from '../../lib/errors/fault-containment.js';
import { BOUND_DEFAULT, bounded, quoted } from '../../lib/util/bounded.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

const cyclic: Record<string, unknown> = { name: 'loop' };
cyclic.self = cyclic;

const throwingProxy = new Proxy(
  {},
  {
    get() {
      throw new Error('get trap');
    },
    ownKeys() {
      throw new Error('ownKeys trap');
    },
    getPrototypeOf() {
      throw new Error('getPrototypeOf trap');
    },
    has() {
      throw new Error('has trap');
    },
    getOwnPropertyDescriptor() {
      throw new Error('descriptor trap');
    },
  },
);

const throwingGetter = Object.defineProperty({}, 'boom', {
  enumerable: true,
  get() {
    throw new Error('getter');
  },
});

const throwingToString = {
  toString() {
    throw new Error('toString');
  },
  [Symbol.toPrimitive]() {
    throw new Error('toPrimitive');
  },
};

class HostileError extends Error {
  override get message(): string {
    throw new Error('message getter');
  }
}

const revoked = Proxy.revocable({}, {});
revoked.revoke();

/** Values a caller or a fault can hand the renderer, each hostile in its own way. */
const HOSTILE: [string, unknown][] = [
  ['a cyclic object', cyclic],
  ['a Proxy whose every trap throws', throwingProxy],
  ['a revoked Proxy', revoked.proxy],
  ['an object with a throwing getter', throwingGetter],
  ['an object whose toString and toPrimitive throw', throwingToString],
  ['an Error whose message getter throws', new HostileError()],
  ['a BigInt', 10n ** 30n],
  ['a Symbol', Symbol('sym\nbol')],
  ['a huge string', 'a'.repeat(5_000_000)],
  ['a huge string of control characters', '\u0000'.repeat(1_000_000)],
  ['a huge array', new Array(1_000_000).fill('x')],
  ['a deeply nested object', JSON.parse('['.repeat(5000) + ']'.repeat(5000))],
  ['a function', function named() {}],
  ['undefined', undefined],
  ['null', null],
  ['NaN', Number.NaN],
  ['an object with a null prototype', Object.create(null)],
];

describe('bounded rendering (totality)', () => {
  it.each(HOSTILE)('renders %s as a bounded, scrubbed string without throwing', (_label, value) => {
    for (const render of [bounded, quoted]) {
      const text = render(value, 80);
      expect(typeof text).toBe('string');
      expect(text.length).toBeLessThanOrEqual(80);
      expect(text).not.toMatch(CONTROL);
    }
  });

  it.each(HOSTILE)('renders %s within the default bound', (_label, value) => {
    expect(bounded(value).length).toBeLessThanOrEqual(BOUND_DEFAULT);
  });

  it('renders a huge string in time proportional to the bound, not to the string', () => {
    const huge = 'b'.repeat(20_000_000);
    const started = performance.now();
    for (let i = 0; i < 1000; i++) bounded(huge, 100);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('marks a cut with an ellipsis and never splits a surrogate pair', () => {
    const text = bounded('ab😀cd', 4);
    expect(text).toBe('ab…');
    expect(bounded('abcdef', 4)).toBe('abc…');
  });

  it('keeps a string of exactly the bound whole, quotes included', () => {
    expect(bounded('abcd', 4)).toBe('abcd');
    expect(quoted('abcd', 6)).toBe('"abcd"');
  });

  it('writes each control character as its \\u escape', () => {
    expect(bounded('a\nb\u0007c\u2028')).toBe('a\\u000ab\\u0007c\\u2028');
  });

  it('quotes a string and leaves other values unquoted', () => {
    expect(quoted('abc')).toBe('"abc"');
    expect(quoted(42)).toBe('42');
  });

  it('renders an Error as its class name and message', () => {
    expect(bounded(new TypeError('wrong'))).toBe('TypeError: wrong');
  });

  it("renders another realm's Error the same way, never with its stack (a vm context's, which fails instanceof Error)", () => {
    const foreign: unknown = runInNewContext("new RangeError('far away')");
    expect(foreign instanceof Error).toBe(false);
    expect(bounded(foreign)).toBe('RangeError: far away');
    expect(faultMessage(foreign)).toBe('far away');
  });
});

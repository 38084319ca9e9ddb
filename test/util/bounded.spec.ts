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

  it('escapes the invisible marks that reorder or hide text: C1 controls, bidi controls and isolates, zero widths, the BOM', () => {
    expect(bounded('a\u0085b\u009fc\u061cd\u202ae\u202ef\u2066g\u200bh\ufeff')).toBe('a\\u0085b\\u009fc\\u061cd\\u202ae\\u202ef\\u2066g\\u200bh\\ufeff');
  });

  it('escapes a lone surrogate half, high or low, and keeps a pair whole', () => {
    expect(bounded('x\ud800y\udfffz\ud83d')).toBe('x\\ud800y\\udfffz\\ud83d');
    expect(bounded('\udc00\ud83d\ude00\ud800')).toBe('\\udc00😀\\ud800');
    expect(quoted('k\udfff', 20)).not.toMatch(/[\ud800-\udfff]/);
  });

  it('cuts to the ellipsis alone at a bound of 0, and keeps a whole surrogate pair before the cut', () => {
    expect(bounded('abc', 0)).toBe('…');
    expect(bounded('a😀bc', 4)).toBe('a😀…');
  });

  it('renders an object three levels deep, an array to its first 20 items, on one line', () => {
    expect(bounded({ a: { b: { c: { d: { e: 1 } } } } }, 500)).toBe('{ a: { b: { c: { d: [Object] } } } }');
    expect(
      bounded(
        Array.from({ length: 25 }, (_, i) => i),
        500,
      ),
    ).toBe(`[ ${Array.from({ length: 20 }, (_, i) => i).join(', ')}, ... 5 more items ]`);
    expect(bounded(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`key${i}`, i])), 1000)).not.toContain('\\u000a');
  });

  it("never runs a value's own inspect hook or getters", () => {
    let ran = 0;
    const value = Object.defineProperty({ a: 1, [Symbol.for('nodejs.util.inspect.custom')]: () => `hook ${++ran}` }, 'lazy', {
      enumerable: true,
      get: () => `getter ${++ran}`,
    });
    expect(bounded(value, 500)).toMatch(/^\{ a: 1, lazy: \[Getter\]/);
    expect(ran).toBe(0);
  });

  it('renders a value that cannot be rendered as <unrenderable value>', () => {
    expect(bounded(throwingProxy)).toBe('<unrenderable value>');
  });

  it('quotes a string and leaves other values unquoted', () => {
    expect(quoted('abc')).toBe('"abc"');
    expect(quoted(42)).toBe('42');
  });

  it('renders an Error as its class name and message', () => {
    expect(bounded(new TypeError('wrong'))).toBe('TypeError: wrong');
  });

  it('renders an object made from Error.prototype as an Error, though Node does not count it a native error', () => {
    const made = Object.create(TypeError.prototype, { message: { value: 'made by hand' } }) as Error;
    expect(bounded(made)).toBe('TypeError: made by hand');
  });

  it("renders another realm's Error the same way, never with its stack (a vm context's, which fails instanceof Error)", () => {
    const foreign: unknown = runInNewContext("new RangeError('far away')");
    expect(foreign instanceof Error).toBe(false);
    expect(bounded(foreign)).toBe('RangeError: far away');
    expect(faultMessage(foreign)).toBe('far away');
  });
});

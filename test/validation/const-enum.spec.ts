import { describe, expect, it } from '@jest/globals';

import { ValueGate } from '../../lib/tools/value-gate.js';
import { jsonEqual } from '../../lib/validation/const-enum.js';
import { SchemaCompiler } from '../../lib/validation/schema-compiler.js';

const gate = (schema: Record<string, unknown>) => ValueGate.build(new SchemaCompiler(), { type: 'object', properties: { x: schema } }, 'test');
// JSON.parse, as a body is read: the keys every object inherits arrive as own keys.
const sent = (json: string) => JSON.parse(json) as Record<string, unknown>;

describe('JSON equality (const and enum)', () => {
  it.each([
    [{ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }, true],
    [1, 1.0, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: undefined }, { b: undefined }, false],
    [[1, 2], [2, 1], false],
    [[], {}, false],
    [null, {}, false],
    ['1', 1, false],
  ])('compares %j and %j: %s', (a, b, equal) => {
    expect(jsonEqual(a, b)).toBe(equal);
    expect(jsonEqual(b, a)).toBe(equal);
  });
});

describe.each(['valueOf', 'toString', 'constructor', 'hasOwnProperty', '__proto__'])('a sent object carrying its own "%s"', (key) => {
  const value = sent(`{"x": {${JSON.stringify(key)}: 1}}`);

  it('is refused by an object const as any other object, never throwing', () => {
    expect(gate({ const: { a: 1 } }).check(value)?.invalid).toEqual([{ path: 'x', problems: ['must be {"a":1}'] }]);
  });

  it('is refused by an enum with object members, never throwing', () => {
    expect(gate({ enum: [{ a: 1 }, 'b'] }).check(value)?.invalid).toEqual([{ path: 'x', problems: ['must be one of {"a":1}, "b"'] }]);
  });

  it('passes a const or enum that is that very object', () => {
    expect(gate({ const: sent(`{${JSON.stringify(key)}: 1}`) }).check(value)).toBeUndefined();
    expect(gate({ enum: ['b', sent(`{${JSON.stringify(key)}: 1}`)] }).check(value)).toBeUndefined();
  });
});

describe('const and enum of primitives, compared as ajv compares them', () => {
  it('passes an equal value and refuses another, of any type', () => {
    const one = gate({ const: 'a' });
    expect(one.check({ x: 'a' })).toBeUndefined();
    expect(one.check({ x: { a: 1 } })?.invalid).toEqual([{ path: 'x', problems: ['must be "a"'] }]);
    const some = gate({ enum: ['a', 1, null, true] });
    for (const x of ['a', 1, 1.0, null, true]) expect(some.check({ x })).toBeUndefined();
    for (const x of ['b', 2, false, {}, []]) expect(some.check({ x })?.invalid).toEqual([{ path: 'x', problems: ['must be one of "a", 1, null, true'] }]);
  });

  it('refuses every value under an empty enum', () => {
    expect(gate({ enum: [] }).check({ x: 'a' })?.invalid).toHaveLength(1);
  });
});

import { describe, expect, it } from '@jest/globals';

import { applyDefaults } from '../../lib/tools/defaults.js';

describe('applying defaults', () => {
  it('fills only properties the caller omitted', () => {
    expect(applyDefaults({ a: 1 }, { a: 9, b: 2 })).toEqual({ a: 1, b: 2 });
  });

  it('keeps a null the caller sent against a default', () => {
    expect(applyDefaults({ a: null }, { a: 9 })).toEqual({ a: null });
  });

  it('never mutates the caller data, and gives each call its own copy of a default', () => {
    const defaults = { tags: ['x'] };
    const data = {};
    const first = applyDefaults(data, defaults);
    (first.tags as string[]).push('mutated');
    expect(data).toEqual({});
    expect(applyDefaults({}, defaults)).toEqual({ tags: ['x'] });
  });

  it('keeps a __proto__ key the caller sent as an own key and pollutes no prototype', () => {
    const data = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const merged = applyDefaults(data, { b: 2 });
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect((merged as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('defines a default named __proto__ as an own key, never as a prototype', () => {
    const defaults = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const merged = applyDefaults({}, defaults);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

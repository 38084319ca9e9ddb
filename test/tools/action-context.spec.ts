import { describe, expect, it } from '@jest/globals';

import { readActionContext } from '../../lib/tools/handler-result.js';

describe("reading an actionContext hook's return", () => {
  it('reads an object as the context, and null or undefined as none', () => {
    const context = { open: 3 };
    expect(readActionContext('tasks', context)).toBe(context);
    expect(readActionContext('tasks', null)).toBeUndefined();
    expect(readActionContext('tasks', undefined)).toBeUndefined();
  });

  it('reads an object with a toJSON as what JSON writes of it', () => {
    expect(readActionContext('tasks', { toJSON: () => ({ open: 3 }) })).toEqual({ open: 3 });
  });

  it('calls that toJSON with the key JSON would give it: "context"', () => {
    expect(readActionContext('tasks', { toJSON: (key: string) => ({ key }) })).toEqual({ key: 'context' });
  });

  it.each([
    ['an array', [1, 2], /must return an object, null or undefined, not \[ 1, 2 \]/],
    ['a string', 'open', /must return an object, null or undefined, not open$/],
    ['a Date, which JSON would send as a string', new Date(0), /must return an object, null or undefined, not a value JSON writes as 1970-01-01T00:00:00\.000Z$/],
    ['an object whose toJSON gives a string', { toJSON: () => 'open' }, /must return an object, null or undefined, not a value JSON writes as open$/],
    ['a Map, which JSON would send as {}', new Map([['open', 3]]), /returned a Map, which JSON cannot carry .*Object\.fromEntries\(map\)/],
    ['a Set, which JSON would send as {}', new Set([3]), /returned a Set, which JSON cannot carry .*Array\.from\(set\)/],
    ['an object whose toJSON gives a Map', { toJSON: () => new Map([['open', 3]]) }, /returned a Map, which JSON cannot carry .*Object\.fromEntries\(map\)/],
  ])('makes %s the tool’s fault, naming it', (_what, returned, message) => {
    expect(() => readActionContext('tasks', returned)).toThrow(TypeError);
    expect(() => readActionContext('tasks', returned)).toThrow(message);
  });
});

import { describe, expect, it } from '@jest/globals';

import { readActionContext } from '../../lib/tools/handler-result.js';

describe("reading an actionContext hook's return", () => {
  it('reads an object as the context, and null or undefined as none', () => {
    const context = { open: 3 };
    expect(readActionContext('tasks', context)).toBe(context);
    expect(readActionContext('tasks', null)).toBeUndefined();
    expect(readActionContext('tasks', undefined)).toBeUndefined();
  });

  it.each([
    ['an array', [1, 2], /must return an object, null or undefined, not \[ 1, 2 \]/],
    ['a string', 'open', /must return an object, null or undefined, not open$/],
    ['a Map, which JSON would send as {}', new Map([['open', 3]]), /returned a Map, which JSON cannot carry .*Object\.fromEntries\(map\)/],
    ['a Set, which JSON would send as {}', new Set([3]), /returned a Set, which JSON cannot carry .*Array\.from\(set\)/],
  ])('makes %s the tool’s fault, naming it', (_what, returned, message) => {
    expect(() => readActionContext('tasks', returned)).toThrow(TypeError);
    expect(() => readActionContext('tasks', returned)).toThrow(message);
  });
});

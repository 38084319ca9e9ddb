import { runInNewContext } from 'node:vm';

import { describe, expect, it } from '@jest/globals';

import { isStackOverflow } from '../../lib/util/stack-overflow.js';

/** What a function recursing without end throws, run in this realm or (`context`) another. */
function overflowThrown(realm: 'this' | 'another'): unknown {
  try {
    if (realm === 'another') runInNewContext('(function down() { return down() + 1; })()');
    else {
      const down = (): number => down() + 1;
      down();
    }
  } catch (thrown) {
    return thrown;
  }
  throw new Error('the recursion returned');
}

describe('isStackOverflow', () => {
  it('reads a stack overflow from this realm and from another', () => {
    expect(isStackOverflow(overflowThrown('this'))).toBe(true);
    const foreign = overflowThrown('another');
    expect(foreign instanceof RangeError).toBe(false);
    expect(isStackOverflow(foreign)).toBe(true);
  });

  it.each([
    ['another RangeError', new RangeError('Invalid array length')],
    ['another error naming the call stack', new TypeError('call stack')],
    ['a string', 'RangeError: Maximum call stack size exceeded'],
    ['an object with a non-string message', { name: 'RangeError', message: 42 }],
    ['null', null],
  ])('is false for %s', (_, thrown) => {
    expect(isStackOverflow(thrown)).toBe(false);
  });
});

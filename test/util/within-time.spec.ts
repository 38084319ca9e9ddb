import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it, jest } from '@jest/globals';

import { withinTime } from '../../lib/util/within-time.js';

describe('withinTime', () => {
  it('settles as the promise does when it settles in time, and never builds the late error then', async () => {
    const late = jest.fn(() => new Error('late'));
    await expect(withinTime(Promise.resolve('on time'), 20, late)).resolves.toBe('on time');
    await expect(withinTime(Promise.reject(new Error('failed')), 20, late)).rejects.toThrow('failed');
    await sleep(60); // past both deadlines: a timer left running would call late() now
    expect(late).not.toHaveBeenCalled();
  });

  it('rejects with the late error once the time passes first', async () => {
    const late = jest.fn(() => new Error('too slow'));
    await expect(withinTime(new Promise(() => undefined), 10, late)).rejects.toThrow('too slow');
    expect(late).toHaveBeenCalledTimes(1);
  });
});

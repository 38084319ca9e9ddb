import { describe, expect, it } from '@jest/globals';

import { WeakValueCache } from '../../lib/util/weak-value-cache.js';
import { collectGarbage, exposedGc } from '../support/collect-garbage.js';
import { until } from '../support/wait.js';

describe('WeakValueCache', () => {
  it('answers a value while it is held elsewhere, and forgets its entry once it was collected', async () => {
    const cache = new WeakValueCache<string, object>();
    const held = { kept: true };
    cache.set('held', held);
    cache.set('dropped', { kept: false });
    await collectGarbage();
    expect([cache.get('held'), cache.get('dropped')]).toEqual([held, undefined]);
    // Finalizers run in a task of their own, later on a loaded machine.
    await until(() => cache.size === 1, "the collected value's entry to go");
    expect(cache.get('held')).toBe(held);
  });

  it('keeps the entry of a value set again under a key whose old value was collected, when the old finalizer runs after', async () => {
    const cache = new WeakValueCache<string, object>();
    const gc = exposedGc();
    cache.set('key', { first: true });
    await new Promise((resolve) => setImmediate(resolve));
    gc(); // the first value is collected; its finalizer runs in a later task, after the set below
    const second = { second: true };
    cache.set('key', second);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect([cache.get('key'), cache.size]).toEqual([second, 1]);
  });
});

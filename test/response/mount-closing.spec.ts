import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from '@jest/globals';

import { MountClosing } from '../../lib/response/mount-closing.js';

describe('MountClosing', () => {
  it('keeps the deadline its first shutdown hook set when the hooks run again (a second teardown)', async () => {
    const closing = new MountClosing({ shutdownGraceMs: 300 });
    const ended: number[] = [];
    const started = Date.now();
    // An answer that never closes by itself: only the deadline ends it.
    closing.track({ whenClosed: () => new Promise<void>(() => undefined), endForShutdown: () => void ended.push(Date.now() - started) });
    closing.onModuleDestroy();
    await sleep(200);
    closing.onModuleDestroy();
    await closing.beforeApplicationShutdown();
    expect(ended).toHaveLength(1);
    // Ended at the first hook's deadline (300 ms), not one moved to the second's (500 ms).
    expect(ended[0]).toBeGreaterThanOrEqual(290);
    expect(ended[0]).toBeLessThan(480);
  });
});

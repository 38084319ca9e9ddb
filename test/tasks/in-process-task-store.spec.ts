import { describe, expect, it, jest } from '@jest/globals';

import type { McpTaskRecord } from '../../lib/contracts/mcp-task-store.js';
import { InProcessTaskStore } from '../../lib/tasks/in-process-task-store.js';

/** A working task that expires at `expiresAt`. */
const task = (taskId: string, expiresAt: number): McpTaskRecord => ({
  taskId,
  subject: null,
  mount: '/mcp',
  tool: 't',
  status: 'working',
  createdAt: new Date(0).toISOString(),
  lastUpdatedAt: new Date(0).toISOString(),
  ttlMs: 1000,
  pollIntervalMs: 100,
  expiresAt,
});

describe('InProcessTaskStore', () => {
  it('answers nothing for a task past its expiry, even before the timer that drops it has run', async () => {
    const store = new InProcessTaskStore(10);
    expect(await store.create(task('gone', Date.now() - 1))).toBe(true);
    expect(await store.get('gone')).toBeUndefined();
    store.onApplicationShutdown();
  });

  it('counts a task as expired from the millisecond of its expiresAt', async () => {
    const store = new InProcessTaskStore(10);
    const now = jest.spyOn(Date, 'now').mockReturnValue(5_000);
    try {
      await store.create(task('edge', 5_001));
      expect(await store.get('edge')).toBeDefined();
      now.mockReturnValue(5_001);
      expect(await store.get('edge')).toBeUndefined();
    } finally {
      now.mockRestore();
      store.onApplicationShutdown();
    }
  });

  it('updates only a task it holds: one it never held (or dropped) stays unknown, and counts for nothing', async () => {
    const store = new InProcessTaskStore(1);
    await store.update(task('absent', Date.now() + 60_000));
    expect(await store.get('absent')).toBeUndefined();
    expect(store.size).toBe(0);
    expect(await store.create(task('held', Date.now() + 60_000))).toBe(true);
    store.onApplicationShutdown();
  });
});

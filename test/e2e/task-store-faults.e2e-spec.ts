import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from '@jest/globals';

import { InProcessTaskStore, type McpTaskRecord } from '../../lib/index.js';
import { TaskRuns } from '../../lib/tasks/task-runs.js';
import { recordEvents } from '../support/mcp-client.js';
import { SleeperTool, taskCall, taskRuns, tasksRequest } from '../support/task-tools.js';
import { createTestApp } from '../support/test-app.js';

/** The in-process store, but `update` fails (a shared store that is down) for the records `failing` picks. */
class FailingUpdatesStore extends InProcessTaskStore {
  failing: (record: McpTaskRecord) => boolean = () => false;
  override async update(record: McpTaskRecord): Promise<void> {
    if (this.failing(record)) throw new Error('redis: connection lost');
    return super.update(record);
  }
}

describe('a task store that fails to write a task', () => {
  it('answers tasks/cancel with a contained fault, not the acknowledgment, when the store did not take the cancelled status', async () => {
    const store = new FailingUpdatesStore(10);
    const t = await createTestApp({ providers: [SleeperTool], options: { tasks: { store } } });
    try {
      const taskId = (await taskCall(t.server, 'sleeper', { tag: 'cancel-unwritten' })).body.result.taskId as string;
      store.failing = (record) => record.status === 'cancelled';
      let cancel: any;
      const events = await recordEvents(['mcp:method:error'], async () => {
        cancel = await tasksRequest(t.server, 'tasks/cancel', { taskId });
      });
      expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result.status).toBe('working'); // what the store holds
      expect(cancel.status).toBe(500);
      expect(cancel.body.error).toEqual({ code: -32603, message: 'Internal error while handling tasks/cancel.' });
      expect(JSON.stringify(cancel.body)).not.toContain('redis');
      expect(events.map((e) => [e.message.method, e.message.exception])).toEqual([['tasks/cancel', 'Error']]);
      expect(taskRuns.get('cancel-unwritten')!.signal.aborted).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('a task store whose create never settles', () => {
  it('frees the running task it held once the task expires: later calls fit in maxRunningBytes again', async () => {
    const store = new InProcessTaskStore(10);
    const create = store.create.bind(store);
    let hang = true;
    store.create = (record) => (hang ? new Promise<boolean>(() => undefined) : create(record));
    const t = await createTestApp({ providers: [SleeperTool], options: { tasks: { store, ttlMs: 300, maxRunningBytes: 2000 } } });
    try {
      const stuck = taskCall(t.server, 'sleeper', { tag: 'never-stored', ms: 10 })
        .timeout(200)
        .then(
          () => 'answered',
          () => 'gave up',
        );
      expect(await stuck).toBe('gave up');
      expect(t.app.get(TaskRuns).running).toBe(1);
      await sleep(400); // past the task's expiry
      expect(t.app.get(TaskRuns).running).toBe(0);
      hang = false;
      const next = await taskCall(t.server, 'sleeper', { tag: 'after-expiry', ms: 10 });
      expect(next.body.result).toMatchObject({ resultType: 'task' });
    } finally {
      await t.close();
    }
  });
});

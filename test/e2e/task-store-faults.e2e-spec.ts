import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from '@jest/globals';

import { InProcessTaskStore, type McpTaskRecord } from '../../lib/index.js';
import { TaskRuns } from '../../lib/tasks/task-runs.js';
import { recordEvents } from '../support/mcp-client.js';
import { SleeperTool, taskCall, taskRuns, tasksRequest } from '../support/task-tools.js';
import { createTestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

/** The in-process store, but `update` fails (a shared store that is down) for the records `failing` picks. */
class FailingUpdatesStore extends InProcessTaskStore {
  failing: (record: McpTaskRecord) => boolean = () => false;
  /** How many updates failed. */
  failed = 0;
  override async update(record: McpTaskRecord): Promise<void> {
    if (this.failing(record)) {
      this.failed++;
      throw new Error('redis: connection lost');
    }
    return super.update(record);
  }
}

describe('a task store that fails to write a task', () => {
  it('answers tasks/cancel with a contained fault, not the acknowledgment, when the store did not take the cancelled status; writes it again once the store is back', async () => {
    const store = new FailingUpdatesStore(10);
    const t = await createTestApp({ providers: [SleeperTool], options: { tasks: { store } } });
    try {
      const taskId = (await taskCall(t.server, 'sleeper', { tag: 'cancel-unwritten' })).body.result.taskId as string;
      store.failing = (record) => record.status === 'cancelled';
      let cancel: any;
      let get: any;
      const events = await recordEvents(['mcp:method:error', 'mcp:seam:error'], async () => {
        cancel = await tasksRequest(t.server, 'tasks/cancel', { taskId });
        get = await tasksRequest(t.server, 'tasks/get', { taskId }); // the store still down: not its stale `working`
      });
      expect(cancel.status).toBe(500);
      expect(cancel.body.error).toEqual({ code: -32603, message: 'Internal error while handling tasks/cancel.' });
      expect(JSON.stringify(cancel.body)).not.toContain('redis');
      expect(get.status).toBe(500);
      expect(get.body.error).toEqual({ code: -32603, message: 'Internal error while handling tasks/get.' });
      expect(events.map((e) => [e.channel, e.message.exception])).toEqual([
        ['mcp:seam:error', 'Error'],
        ['mcp:method:error', 'Error'],
        ['mcp:seam:error', 'Error'],
        ['mcp:method:error', 'Error'],
      ]);
      expect(events[0]!.message).toMatchObject({ mount: '/mcp', seam: 'McpTaskStore', call: 'update', taskId, error: 'Error: redis: connection lost' });
      expect(taskRuns.get('cancel-unwritten')!.signal.aborted).toBe(true);

      store.failing = () => false; // the store is back
      expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result.status).toBe('cancelled');
      expect((await tasksRequest(t.server, 'tasks/cancel', { taskId })).body.result).toMatchObject({ resultType: 'complete' }); // acknowledged
      expect(t.app.get(TaskRuns).running).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('keeps a result the store did not take, and writes it again before the next tasks/get reads the store', async () => {
    const store = new FailingUpdatesStore(10);
    const t = await createTestApp({ providers: [SleeperTool], options: { tasks: { store } } });
    try {
      const taskId = (await taskCall(t.server, 'sleeper', { tag: 'result-unwritten' })).body.result.taskId as string;
      store.failing = (record) => record.status === 'completed';
      const events = await recordEvents(['mcp:seam:error', 'mcp:task:status'], async () => {
        taskRuns.get('result-unwritten')!.wake!();
        await until(() => store.failed > 0, 'the completed status to fail to be written');
      });
      expect(events.map((e) => [e.channel, e.message.taskId])).toEqual([['mcp:seam:error', taskId]]); // not announced: the store does not hold it
      expect(t.app.get(TaskRuns).running).toBe(1); // kept: the store still says working

      const get = await tasksRequest(t.server, 'tasks/get', { taskId });
      expect(get.body.error).toEqual({ code: -32603, message: 'Internal error while handling tasks/get.' });

      store.failing = () => false;
      const announced = await recordEvents(['mcp:task:status'], async () => {
        const back = await tasksRequest(t.server, 'tasks/get', { taskId });
        expect(back.body.result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: expect.any(String) }] } });
      });
      expect(announced.map((e) => e.message.status)).toEqual(['completed']);
      expect(t.app.get(TaskRuns).running).toBe(0);
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

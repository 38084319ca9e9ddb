import { afterEach, describe, expect, it } from '@jest/globals';

import { InProcessTaskStore, McpAuthDecision, McpTool, type McpContext, type McpPlainTool, type McpTaskRecord } from '../../lib/index.js';
import { TaskRuns } from '../../lib/tasks/task-runs.js';
import { meta, recordEvents, rpc } from '../support/mcp-client.js';
import { leavingRequest } from '../support/raw-http.js';
import { useTestApp } from '../support/suite-app.js';
import { InterviewTool, SleeperTool, TASK_CAPS, taskCall, taskRuns, tasksRequest, waitForStatus } from '../support/task-tools.js';
import { createTestApp } from '../support/test-app.js';
import { nextEvent, until } from '../support/wait.js';

/**
 * The in-process store, but `update` fails (a shared store that is down) for the records `failing` picks, and waits
 * for the promise `holding` gives a record before it goes on (a shared store slow to answer).
 */
class FailingUpdatesStore extends InProcessTaskStore {
  failing: (record: McpTaskRecord) => boolean = () => false;
  holding: (record: McpTaskRecord) => Promise<void> | undefined = () => undefined;
  /** How many updates failed. */
  failed = 0;
  override async update(record: McpTaskRecord): Promise<void> {
    await this.holding(record);
    if (this.failing(record)) {
      this.failed++;
      throw new Error('redis: connection lost');
    }
    return super.update(record);
  }
}

/** Asks for input and answers without waiting for it: its task completes while its input_required status is written. */
@McpTool({ name: 'asks_and_ends', description: 'Asks, answers at once.', inputSchema: { type: 'object', properties: {} }, taskSupport: 'optional' })
class AsksAndEndsTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext): string {
    void ctx.elicit({ message: 'Anything?', requestedSchema: { type: 'object', properties: {} } }, { key: 'anything' }).catch(() => undefined);
    return 'answered without the answer';
  }
}

describe('a task store that fails to write a task', () => {
  const store = new FailingUpdatesStore(10);
  const app = useTestApp({ providers: [SleeperTool, InterviewTool, AsksAndEndsTool], options: { tasks: { store } } });
  afterEach(() => {
    store.failing = () => false;
    store.holding = () => undefined;
    store.failed = 0;
  });

  it('answers tasks/cancel with a contained fault, not the acknowledgment, when the store did not take the cancelled status; writes it again once the store is back', async () => {
    const t = app();
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
  });

  it('keeps a result the store did not take, and writes it again before the next tasks/get reads the store', async () => {
    const t = app();
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
  });

  it('keeps a result the store did not take while an earlier status was still being written: the run stays, and the result is written again', async () => {
    const t = app();
    let release: (() => void) | undefined;
    store.holding = (record) => (record.status === 'input_required' ? new Promise<void>((go) => (release = go)) : undefined);
    store.failing = (record) => record.status === 'completed';
    const taskId = (await taskCall(t.server, 'asks_and_ends')).body.result.taskId as string;
    await until(() => release !== undefined, 'the input_required status to reach the store');
    release!(); // taken: the task has completed meanwhile, and its completed status, written next, fails
    await until(() => store.failed > 0, 'the completed status to fail to be written');
    expect(t.app.get(TaskRuns).running).toBe(1); // kept: the store says input_required, which has not ended

    store.failing = () => false;
    const back = await tasksRequest(t.server, 'tasks/get', { taskId });
    expect(back.body.result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'answered without the answer' }] } });
    expect(t.app.get(TaskRuns).running).toBe(0);
  });

  it('reads what the store holds while a later status is being written after an earlier one failed, not waiting on that write', async () => {
    const t = app();
    const releases: (() => void)[] = [];
    store.holding = () => new Promise<void>((go) => releases.push(go));
    store.failing = (record) => record.status === 'input_required';
    const taskId = (await taskCall(t.server, 'asks_and_ends')).body.result.taskId as string;
    await until(() => releases.length === 1, 'the input_required status to reach the store');
    releases[0]!(); // not taken; the task has completed meanwhile, and its completed status, written next, waits
    await until(() => releases.length === 2, 'the completed status to reach the store');
    const during = await tasksRequest(t.server, 'tasks/get', { taskId });
    expect([during.status, during.body.result?.status]).toEqual([200, 'working']);
    releases[1]!();
    expect((await waitForStatus(t.server, taskId, ['completed'])).result.content[0].text).toBe('answered without the answer');
  });

  it('writes a status the store failed to take again only until the store takes it: a later status stays what tasks/get reads', async () => {
    const t = app();
    store.failing = (record) => record.status === 'input_required';
    const taskId = (await taskCall(t.server, 'interview')).body.result.taskId as string;
    await until(() => store.failed === 2, 'both input_required statuses (one per question) to fail to be written');

    store.failing = () => false;
    // Its read writes the last of them again (both questions), then the answer makes a later one (the city only).
    const update = await tasksRequest(t.server, 'tasks/update', { taskId, inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } });
    expect(update.body.result).toMatchObject({ resultType: 'complete' });
    const after = await tasksRequest(t.server, 'tasks/get', { taskId });
    expect(after.body.result.status).toBe('input_required');
    expect(Object.keys(after.body.result.inputRequests)).toEqual(['city']);

    await tasksRequest(t.server, 'tasks/update', { taskId, inputResponses: { city: { action: 'accept', content: { city: 'Lima' } } } });
    expect((await waitForStatus(t.server, taskId, ['completed'])).result.content[0].text).toBe('Ada from Lima');
  });
});

describe("a task store that fails to write another subject's task", () => {
  it('answers the other subject task_not_found, not the fault, and writes nothing for it', async () => {
    const store = new FailingUpdatesStore(10);
    const auth = { authenticate: (req: { headers: Record<string, unknown> }) => McpAuthDecision.allow({ subject: String(req.headers['x-user'] ?? 'alice') }) };
    const t = await createTestApp({ providers: [SleeperTool], options: { auth, tasks: { store } } });
    try {
      const taskId = (await taskCall(t.server, 'sleeper', { tag: 'others-unwritten' })).body.result.taskId as string;
      store.failing = (record) => record.status === 'cancelled';
      expect((await tasksRequest(t.server, 'tasks/cancel', { taskId })).status).toBe(500);
      const failed = store.failed;
      const res = await tasksRequest(t.server, 'tasks/get', { taskId }, TASK_CAPS, { 'x-user': 'mallory' });
      expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'task_not_found' } });
      expect(store.failed).toBe(failed); // the run's status was not written again on mallory's behalf
    } finally {
      await t.close();
    }
  });
});

/** The in-process store, but the calls `hanging` names wait until `release()` (a shared store that queues commands). */
class HangingStore extends InProcessTaskStore {
  hanging = new Set<'create' | 'get' | 'update'>();
  /** The records whose create or update waited. */
  readonly held: McpTaskRecord[] = [];
  /** The records updates wrote. */
  readonly written: McpTaskRecord[] = [];
  private readonly waiting: (() => void)[] = [];
  override create(record: McpTaskRecord): Promise<boolean> {
    return this.after('create', record, () => super.create(record));
  }
  override get(taskId: string): Promise<McpTaskRecord | undefined> {
    return this.after('get', undefined, () => super.get(taskId));
  }
  override update(record: McpTaskRecord): Promise<void> {
    return this.after('update', record, () => super.update(record).then(() => void this.written.push(record)));
  }
  /** Lets every waiting call go on, and the calls from now on. */
  release(): void {
    this.hanging.clear();
    for (const go of this.waiting.splice(0)) go();
  }
  private after<T>(call: 'create' | 'get' | 'update', record: McpTaskRecord | undefined, then: () => Promise<T>): Promise<T> {
    if (!this.hanging.has(call)) return then();
    if (record) this.held.push(record);
    return new Promise<void>((go) => this.waiting.push(go)).then(then);
  }
}

/** Makes its call a task without waiting for the store to hold it, and answers at once (a task whose handler ends first). */
@McpTool({
  name: 'starts_and_ends',
  description: 'Starts a task, answers at once.',
  inputSchema: { type: 'object', properties: {} },
  taskSupport: 'optional',
  taskStart: 'handler',
})
class StartsAndEndsTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext): string {
    void ctx.startTask();
    return 'ended before the store answered';
  }
}

describe('a task store that does not answer within tasks.storeTimeoutMs', () => {
  const store = new HangingStore(10);
  const app = useTestApp({ providers: [SleeperTool, StartsAndEndsTool], options: { tasks: { store, storeTimeoutMs: 200, maxRunningBytes: 4000 } } });
  afterEach(() => {
    store.release();
    store.held.length = 0;
    store.written.length = 0;
  });
  const unavailable = (call: string) => ({
    code: -32603,
    message: `Internal error: the task store did not answer its ${call} call within 200 ms (tasks.storeTimeoutMs); retry later.`,
    data: { reason: 'task_store_unavailable' },
  });

  it('refuses the call with 503 task_store_unavailable, frees its running bytes at once, and marks the task failed once the store takes it', async () => {
    const t = app();
    store.hanging.add('create');
    const started = Date.now();
    const events = await recordEvents(['mcp:task:status'], async () => {
      const refused = await taskCall(t.server, 'sleeper', { tag: 'never-answered', ms: 10 }).timeout(5000);
      expect(refused.status).toBe(503);
      expect(refused.body.error).toEqual(unavailable('create'));
      expect(Date.now() - started).toBeLessThan(2000);
      expect(t.app.get(TaskRuns).running).toBe(0); // not held until the task expires
      const [late] = store.held;
      store.release(); // the store comes back and takes the task it was given
      await until(() => store.written.some((record) => record.taskId === late!.taskId), 'the late task to be written again');
      expect(await store.get(late!.taskId)).toMatchObject({
        status: 'failed',
        error: { code: -32603, message: expect.stringContaining('took this task too late'), data: { reason: 'task_store_unavailable' } },
      });
    });
    expect(events).toEqual([]); // a task the client never had is never announced
    const next = await taskCall(t.server, 'sleeper', { tag: 'after-the-store', ms: 10 }); // fits in maxRunningBytes
    expect(next.body.result).toMatchObject({ resultType: 'task' });
    await waitForStatus(t.server, next.body.result.taskId as string, ['completed']);
  });

  it('keeps a task stored too late failed, not the status its handler reached meanwhile, and announces none', async () => {
    const t = app();
    store.hanging.add('create');
    const events = await recordEvents(['mcp:task:status'], async () => {
      const refused = await taskCall(t.server, 'starts_and_ends').timeout(5000);
      expect([refused.status, refused.body.error]).toEqual([503, unavailable('create')]);
      const [late] = store.held;
      store.release();
      await until(() => store.written.some((record) => record.taskId === late!.taskId), 'the late task to be written again');
      // Read over HTTP: by the time it is answered, any write queued behind the first has landed.
      const read = await tasksRequest(t.server, 'tasks/get', { taskId: late!.taskId });
      expect(read.body.result).toMatchObject({ status: 'failed', error: { data: { reason: 'task_store_unavailable' } } });
      expect(await store.get(late!.taskId)).not.toHaveProperty('result'); // what the store holds, not only what is shown
    });
    expect(events).toEqual([]);
  });

  it('refuses tasks/get with 503 task_store_unavailable while the store does not take a status it failed to take before', async () => {
    const t = app();
    const taskId = (await taskCall(t.server, 'sleeper', { tag: 'resave-unanswered' })).body.result.taskId as string;
    const update = store.update.bind(store);
    store.update = () => Promise.reject(new Error('redis: connection lost')); // the cancelled status is not taken
    try {
      expect((await tasksRequest(t.server, 'tasks/cancel', { taskId })).status).toBe(500);
    } finally {
      store.update = update;
    }
    store.hanging.add('update'); // and the store hangs when it is written again
    const refused = await tasksRequest(t.server, 'tasks/get', { taskId }).timeout(5000);
    expect([refused.status, refused.body.error]).toEqual([503, unavailable('update')]);
    store.release();
    expect(await waitForStatus(t.server, taskId, ['cancelled'])).toMatchObject({ status: 'cancelled' });
  });

  it('refuses tasks/get with 503 task_store_unavailable while the store does not answer get, and answers once it does', async () => {
    const t = app();
    const taskId = (await taskCall(t.server, 'sleeper', { tag: 'get-unanswered', ms: 10 })).body.result.taskId as string;
    store.hanging.add('get');
    const refused = await tasksRequest(t.server, 'tasks/get', { taskId }).timeout(5000);
    expect([refused.status, refused.body.error]).toEqual([503, unavailable('get')]);
    store.release();
    expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result).toMatchObject({ taskId });
  });

  it('refuses tasks/cancel with 503 task_store_unavailable, not the acknowledgment, while the store does not take the cancelled status; the status lands in order once it does', async () => {
    const t = app();
    const taskId = (await taskCall(t.server, 'sleeper', { tag: 'cancel-unanswered' })).body.result.taskId as string;
    store.hanging.add('update');
    const refused = await tasksRequest(t.server, 'tasks/cancel', { taskId }).timeout(5000);
    expect([refused.status, refused.body.error]).toEqual([503, unavailable('update')]);
    expect(taskRuns.get('cancel-unanswered')!.signal.aborted).toBe(true);
    store.release();
    expect(await waitForStatus(t.server, taskId, ['cancelled'])).toMatchObject({ status: 'cancelled' });
  });
});

describe('a client that leaves while the store takes its task', () => {
  it('leaves the task running: from its start, the handler’s signal is the task’s, not the request’s', async () => {
    const store = new HangingStore(10);
    const t = await createTestApp({ providers: [SleeperTool], options: { tasks: { store } } });
    try {
      store.hanging.add('create');
      const req = leavingRequest(
        t.server,
        rpc('tools/call', { name: 'sleeper', arguments: { tag: 'left-early' }, _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS }) }),
      );
      await until(() => store.held.length > 0, 'the task to be created');
      const cancelled = nextEvent('mcp:request:cancelled');
      req.destroy();
      await cancelled;
      store.release();
      await until(() => taskRuns.has('left-early'), 'the task’s handler to start');
      expect(taskRuns.get('left-early')!.signal.aborted).toBe(false);
      expect(await waitForStatus(t.server, store.held[0]!.taskId, ['working'])).toMatchObject({ status: 'working' });
      await tasksRequest(t.server, 'tasks/cancel', { taskId: store.held[0]!.taskId });
    } finally {
      store.release();
      await t.close();
    }
  });
});

describe('a tasks/update that answers nothing outstanding', () => {
  it('writes nothing to the store', async () => {
    const store = new HangingStore(10);
    const t = await createTestApp({ providers: [InterviewTool], options: { tasks: { store } } });
    try {
      const taskId = (await taskCall(t.server, 'interview')).body.result.taskId as string;
      await waitForStatus(t.server, taskId, ['input_required']);
      const writes = store.written.length;
      const stray = await tasksRequest(t.server, 'tasks/update', { taskId, inputResponses: { stray: { action: 'cancel' } } });
      expect(stray.body.result).toMatchObject({ resultType: 'complete' });
      expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result.status).toBe('input_required');
      expect(store.written.length).toBe(writes);
    } finally {
      await t.close();
    }
  });
});

describe('a task store whose update never settles', () => {
  it('frees the running task once the task expires, not once the store answers: later calls fit in maxRunningBytes again', async () => {
    const store = new HangingStore(10);
    const t = await createTestApp({ providers: [SleeperTool], options: { tasks: { store, ttlMs: 300, maxRunningBytes: 4000 } } });
    try {
      await taskCall(t.server, 'sleeper', { tag: 'never-updated' });
      store.hanging.add('update');
      taskRuns.get('never-updated')!.wake!(); // its completed status waits on the store
      await until(() => store.held.length > 0, 'the completed status to be written');
      expect(t.app.get(TaskRuns).running).toBe(1);
      await until(() => t.app.get(TaskRuns).running === 0, 'the task to expire and leave the running ones');
      const next = await taskCall(t.server, 'sleeper', { tag: 'after-expiry', ms: 10 });
      expect(next.body.result).toMatchObject({ resultType: 'task' });
    } finally {
      store.release();
      await t.close();
    }
  });
});

describe('a task store whose get returns something other than the task record', () => {
  /** Variants of the stored record a buggy store might return, and the problem the fault names. */
  const VARIANTS: [string, (record: McpTaskRecord) => unknown, string][] = [
    ['a string', (r) => JSON.stringify(r), 'not a task record'],
    ['another task', (r) => ({ ...r, taskId: 'c0ffee00-0000-4000-8000-000000000000' }), 'the record of another task (c0ffee00-0000-4000-8000-000000000000)'],
    ['an unknown status', (r) => ({ ...r, status: 'done' }), 'status done, not one of working, input_required, completed, failed, cancelled'],
    ['a Date for createdAt', (r) => ({ ...r, createdAt: new Date(r.createdAt) }), 'not a string'],
    ['ttlMs as a string', (r) => ({ ...r, ttlMs: String(r.ttlMs) }), 'ttlMs 60000, not a number'],
    ['a completed task without its result', (r) => ({ ...r, status: 'completed', result: undefined }), 'a completed task whose result is undefined, not an object'],
    ['a failed task whose error is a string', (r) => ({ ...r, status: 'failed', error: 'boom' }), 'a failed task whose error is boom, not a JSON-RPC error'],
    ['a failed task whose error has no code', (r) => ({ ...r, status: 'failed', error: { message: 'boom' } }), 'not a JSON-RPC error'],
    ['a failed task whose error has no message', (r) => ({ ...r, status: 'failed', error: { code: -32603 } }), 'not a JSON-RPC error'],
    ['pollIntervalMs as a string', (r) => ({ ...r, pollIntervalMs: String(r.pollIntervalMs) }), 'not a number'],
    ['a numeric statusMessage', (r) => ({ ...r, statusMessage: 42 }), 'statusMessage 42, not a string'],
    ['an input-required task whose inputRequests is a string', (r) => ({ ...r, status: 'input_required', inputRequests: 'none' }), 'inputRequests none, not an object'],
  ];

  it.each(VARIANTS)('answers tasks/get of %s with a contained fault naming the problem, nothing of it sent', async (_what, variant, problem) => {
    const store = new InProcessTaskStore(10);
    const get = store.get.bind(store);
    let odd = false;
    store.get = async (taskId) => {
      const record = await get(taskId);
      return (odd && record ? variant(record) : record) as McpTaskRecord | undefined;
    };
    const t = await createTestApp({ providers: [SleeperTool], options: { tasks: { store, ttlMs: 60_000 } } });
    try {
      const taskId = (await taskCall(t.server, 'sleeper', { tag: `odd-${_what}`, ms: 10 })).body.result.taskId as string;
      odd = true;
      let res: any;
      const events = await recordEvents(['mcp:method:error'], async () => (res = await tasksRequest(t.server, 'tasks/get', { taskId })));
      expect(res.status).toBe(500);
      expect(res.body.error).toEqual({ code: -32603, message: 'Internal error while handling tasks/get.' });
      expect(events.map((e) => [e.message.exception, e.message.error])).toEqual([['TypeError', expect.stringContaining(problem)]]);
      expect(events[0]!.message.error).toContain(`the task store's get("${taskId}") returned`);
    } finally {
      await t.close();
    }
  });

  const RESULT = { content: [{ type: 'text', text: 'early' }] };
  const ERROR = { code: -32603, message: 'Internal error: stale.' };

  it.each([
    ['an input-required task the store keeps without inputRequests: an empty map', { status: 'input_required' }, { inputRequests: {} }],
    ['a cancelled task the store keeps with a result and an error: neither', { status: 'cancelled', result: RESULT, error: ERROR }, {}],
    ['a failed task the store keeps with a result: its error only', { status: 'failed', result: RESULT, error: ERROR }, { error: ERROR }],
  ])('answers tasks/get of %s', async (_what, fields, inlined) => {
    const store = new InProcessTaskStore(10);
    const get = store.get.bind(store);
    store.get = async (taskId) => {
      const record = await get(taskId);
      return record && ({ ...record, ...fields } as McpTaskRecord);
    };
    const t = await createTestApp({ providers: [SleeperTool], options: { tasks: { store, ttlMs: 60_000 } } });
    try {
      const taskId = (await taskCall(t.server, 'sleeper', { tag: `kept-${_what}`, ms: 10 })).body.result.taskId as string;
      const res = await tasksRequest(t.server, 'tasks/get', { taskId });
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ taskId, status: fields.status });
      const shown = ['inputRequests', 'result', 'error'].filter((key) => key in res.body.result);
      expect(Object.fromEntries(shown.map((key) => [key, res.body.result[key]]))).toEqual(inlined);
    } finally {
      await t.close();
    }
  });
});

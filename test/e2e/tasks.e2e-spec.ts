import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import {
  InProcessTaskStore,
  McpAction,
  McpAuthDecision,
  McpConfigurationError,
  McpTaskStore,
  McpTool,
  TASKS_EXTENSION,
  type McpContext,
  type McpPlainTool,
  type McpTaskRecord,
} from '../../lib/index.js';
import { TaskRuns } from '../../lib/tasks/task-runs.js';
import { EchoTool } from '../support/fixture-tools.js';
import { initialize, legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { meta, mirroredHeaders, post, recordEvents, rpc } from '../support/mcp-client.js';
import { leavingRequest } from '../support/raw-http.js';
import { answerMessages, finalMessage } from '../support/sse.js';
import { TASK_CAPS, TASK_TOOLS, taskCall, taskRuns, tasksRequest, waitForStatus } from '../support/task-tools.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { nextEvent, until } from '../support/wait.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const auth = { authenticate: (req: { headers: Record<string, unknown> }) => McpAuthDecision.allow({ subject: String(req.headers['x-user'] ?? 'alice') }) };

/** Creates a task of `sleeper` that runs until cancelled; its id. */
async function sleeping(t: TestApp, tag: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await taskCall(t.server, 'sleeper', { tag }, TASK_CAPS, headers);
  expect(res.body.result.resultType).toBe('task');
  return res.body.result.taskId as string;
}

describe('tasks extension (io.modelcontextprotocol/tasks)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [...TASK_TOOLS, EchoTool], options: { auth, tasks: { pollIntervalMs: 250 } } });
  });
  afterAll(() => t.close());

  it('advertises the extension under capabilities.extensions (never capabilities.tasks)', async () => {
    const res = await post(t.server, rpc('server/discover'));
    expect(res.body.result.capabilities.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(res.body.result.capabilities.tasks).toBeUndefined();
  });

  it('answers a task-supporting call with a flat CreateTaskResult, then tasks/get inlines the result once completed', async () => {
    const created = await taskCall(t.server, 'sleeper', { tag: 'woken' });
    expect(created.status).toBe(200);
    const task = created.body.result;
    expect(task).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 250 });
    expect(task.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(task.createdAt).toMatch(ISO);
    expect(task.lastUpdatedAt).toMatch(ISO);
    for (const key of ['result', 'error', 'inputRequests', 'requestState', 'task', 'content']) expect(task).not.toHaveProperty(key);
    const stored = await t.app.get<McpTaskStore>(McpTaskStore).get(task.taskId);
    expect(stored!.expiresAt).toBe(Date.parse(task.createdAt) + task.ttlMs); // kept ttlMs from its creation, to the millisecond

    const working = await tasksRequest(t.server, 'tasks/get', { taskId: task.taskId });
    expect(working.body.result).toMatchObject({ resultType: 'complete', taskId: task.taskId, status: 'working' });
    expect(working.body.result).not.toHaveProperty('result');

    await until(() => taskRuns.has('woken'), 'the task to run');
    taskRuns.get('woken')!.wake!();
    const done = await waitForStatus(t.server, task.taskId, ['completed']);
    expect(done.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'woken' }] });
    expect(done).not.toHaveProperty('requestState');
    expect(Date.parse(done.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(done.createdAt));
  });

  it('runs an optional tool synchronously when the request does not declare the extension', async () => {
    const res = await taskCall(t.server, 'sleeper', { ms: 1 }, {});
    expect(res.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'slept 1 ms' }] });
    expect(res.body.result).not.toHaveProperty('taskId');
  });

  it('answers a required tool without the extension with 400 + -32021 naming it, before the tool runs', async () => {
    const res = await taskCall(t.server, 'must_task', {}, { elicitation: {} });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
    const task = await taskCall(t.server, 'must_task');
    expect((await waitForStatus(t.server, task.body.result.taskId, ['completed'])).result.content[0].text).toBe('done as a task');
  });

  it('answers the tasks methods with 400 + -32021 without the extension, and -32602 for an unknown id with it', async () => {
    for (const [method, params] of [
      ['tasks/get', { taskId: 'nope' }],
      ['tasks/update', { taskId: 'nope', inputResponses: {} }],
      ['tasks/cancel', { taskId: 'nope' }],
    ] as const) {
      const without = await tasksRequest(t.server, method, params, {});
      expect(without.status).toBe(400);
      expect(without.body.error.code).toBe(-32021);
      const unknown = await tasksRequest(t.server, method, params);
      expect(unknown.body.error).toMatchObject({ code: -32602, data: { reason: 'task_not_found', taskId: 'nope' } });
    }
  });

  it('quotes an unknown task id bounded: cut, control and bidi characters escaped, no surrogate pair split', async () => {
    const taskId = `\u202Eevil\u2066\u0007\u001b[31m${'x'.repeat(84)}😀${'y'.repeat(300)}`;
    const res = await tasksRequest(t.server, 'tasks/get', { taskId }, TASK_CAPS, { 'mcp-name': `=?base64?${Buffer.from(taskId).toString('base64')}?=` });
    expect(res.body.error.data.reason).toBe('task_not_found');
    const quoted: string = res.body.error.data.taskId;
    expect(quoted).toMatch(/^\\u202eevil\\u2066\\u0007\\u001b\[31mx+/);
    expect(quoted).not.toMatch(/[\u0000-\u001f\u202e\u2066]/);
    expect(quoted.length).toBeLessThanOrEqual(100);
    expect(quoted.endsWith('…')).toBe(true);
    expect(quoted).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('answers tasks/result and tasks/list, which the extension removed, with -32601', async () => {
    for (const method of ['tasks/result', 'tasks/list']) {
      const res = await tasksRequest(t.server, method, { taskId: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe(-32601);
    }
  });

  it('refuses a tasks/get whose Mcp-Name is not its taskId (400 + -32020)', async () => {
    const taskId = await sleeping(t, 'headers');
    const res = await tasksRequest(t.server, 'tasks/get', { taskId }, TASK_CAPS, { 'mcp-name': 'another-task' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32020);
    await tasksRequest(t.server, 'tasks/cancel', { taskId });
  });

  it('cancels a running task: its handler signal aborts, it settles cancelled, and a second cancel is the same ack', async () => {
    const taskId = await sleeping(t, 'cancel-me');
    const seen = taskRuns.get('cancel-me')!;
    expect(seen.signal.aborted).toBe(false);
    const ack = await tasksRequest(t.server, 'tasks/cancel', { taskId });
    expect(ack.body.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect(seen.signal.aborted).toBe(true);
    const cancelled = await tasksRequest(t.server, 'tasks/get', { taskId });
    expect(cancelled.body.result).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled by the client.' });
    expect(cancelled.body.result).not.toHaveProperty('result');
    await new Promise((resolve) => setTimeout(resolve, 50)); // the aborted handler returns: its late result is dropped
    expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result.status).toBe('cancelled');
    const again = await tasksRequest(t.server, 'tasks/cancel', { taskId });
    expect(again.body.result.resultType).toBe('complete');
  });

  it("cancels a running action's task: the action's handler signal aborts", async () => {
    const res = await taskCall(t.server, 'reports', { action: 'wait', data: { tag: 'cancel-action' } });
    await until(() => taskRuns.has('cancel-action'), 'the action to run');
    await tasksRequest(t.server, 'tasks/cancel', { taskId: res.body.result.taskId });
    expect(taskRuns.get('cancel-action')!.signal.aborted).toBe(true);
  });

  it('reports no fault when a cancelled handler stops by throwing its abort (no mcp:tool:error)', async () => {
    const events = await recordEvents(['mcp:tool:error', 'mcp:tool:stop'], async () => {
      const res = await taskCall(t.server, 'sleeper', { tag: 'throws-on-cancel', throwOnAbort: true });
      await tasksRequest(t.server, 'tasks/cancel', { taskId: res.body.result.taskId });
      await until(() => taskRuns.get('throws-on-cancel')!.signal.aborted, 'the cancelled handler aborted');
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(events.map((e) => e.channel)).toEqual(['mcp:tool:stop']);
  });

  it("reports a cancelled handler that throws its abort as a task's stop: isError, and nobody's error (no errorKind)", async () => {
    const events = await recordEvents(['mcp:tool:stop'], async () => {
      const stopped = nextEvent('mcp:tool:stop');
      const res = await taskCall(t.server, 'sleeper', { tag: 'throws-on-cancel-kind', throwOnAbort: true });
      await tasksRequest(t.server, 'tasks/cancel', { taskId: res.body.result.taskId });
      await until(() => taskRuns.get('throws-on-cancel-kind')!.signal.aborted, 'the cancelled handler aborted');
      await stopped;
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.message).toMatchObject({ tool: 'sleeper', isError: true });
    expect(events[0]!.message).not.toHaveProperty('errorKind');
  });

  it('reports no fault when a handler stops by throwing its abort as its client leaves (no mcp:tool:error)', async () => {
    const events = await recordEvents(['mcp:tool:error', 'mcp:tool:stop'], async () => {
      const req = leavingRequest(t.server, rpc('tools/call', { name: 'sleeper', arguments: { tag: 'throws-on-leave', throwOnAbort: true } }));
      await until(() => taskRuns.has('throws-on-leave'), 'the handler started');
      req.destroy();
      await until(() => taskRuns.get('throws-on-leave')!.signal.aborted, 'the handler aborted as its client left');
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(events.map((e) => e.channel)).toEqual(['mcp:tool:stop']);
  });

  it("shows another subject's task as not found, on every method, and leaves it running", async () => {
    const taskId = await sleeping(t, 'alices', { 'x-user': 'alice' });
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ] as const) {
      const res = await tasksRequest(t.server, method, params, TASK_CAPS, { 'x-user': 'mallory' });
      expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'task_not_found' } });
    }
    expect(taskRuns.get('alices')!.signal.aborted).toBe(false);
    expect((await tasksRequest(t.server, 'tasks/get', { taskId }, TASK_CAPS, { 'x-user': 'alice' })).body.result.status).toBe('working');
    await tasksRequest(t.server, 'tasks/cancel', { taskId }, TASK_CAPS, { 'x-user': 'alice' });
  });

  it('parks a task that asks for input (input_required, the requests shown), keeps it parked after a partial update, resumes it on the last answer', async () => {
    const taskId = (await taskCall(t.server, 'interview')).body.result.taskId as string;
    const parked = await waitForStatus(t.server, taskId, ['input_required']);
    expect(Object.keys(parked.inputRequests).sort()).toEqual(['city', 'name']);
    expect(parked.inputRequests.name).toMatchObject({ method: 'elicitation/create', params: { message: 'Name?' } });

    const bad = await tasksRequest(t.server, 'tasks/update', {
      taskId,
      inputResponses: { city: { action: 'accept', content: { city: 'Paris' } }, name: { action: 'accept', content: { name: 42 } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_input_response', key: 'name' } });
    // All or nothing: the good answer in the refused update was not delivered either.
    expect(Object.keys((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result.inputRequests).sort()).toEqual(['city', 'name']);

    // Keys are matched exactly: a key differing in case or spaces answers nothing.
    const rome = { action: 'accept', content: { city: 'Rome' } };
    const partial = await tasksRequest(t.server, 'tasks/update', {
      taskId,
      inputResponses: { name: { action: 'accept', content: { name: 'Ada' } }, stray: { x: 1 }, CITY: rome, ' city': rome },
    });
    expect(partial.body.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const still = await tasksRequest(t.server, 'tasks/get', { taskId });
    expect(still.body.result.status).toBe('input_required');
    expect(Object.keys(still.body.result.inputRequests)).toEqual(['city']);

    await tasksRequest(t.server, 'tasks/update', { taskId, inputResponses: { city: { action: 'accept', content: { city: 'London' } } } });
    const done = await waitForStatus(t.server, taskId, ['completed']);
    expect(done.result.content[0].text).toBe('Ada from London');
    expect(done).not.toHaveProperty('inputRequests');
  });

  it('rejects the input requests of a task cancelled while it waits for input: its handler stops', async () => {
    const taskId = (await taskCall(t.server, 'interview')).body.result.taskId as string;
    await waitForStatus(t.server, taskId, ['input_required']);
    const stopped = nextEvent('mcp:tool:stop');
    await tasksRequest(t.server, 'tasks/cancel', { taskId });
    expect(await stopped).toMatchObject({ tool: 'interview', isError: true });
    expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result).toMatchObject({ status: 'cancelled' });
    // The stored record keeps input requests only while input_required (McpTaskRecord).
    expect(await t.app.get<McpTaskStore>(McpTaskStore).get(taskId)).not.toHaveProperty('inputRequests');
  });

  it('announces each status a task enters, once the store holds it, on mcp:task:status', async () => {
    const events = await recordEvents(['mcp:task:status'], async () => {
      const taskId = (await taskCall(t.server, 'interview')).body.result.taskId as string;
      await waitForStatus(t.server, taskId, ['input_required']);
      await tasksRequest(t.server, 'tasks/update', { taskId, inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } });
      await tasksRequest(t.server, 'tasks/update', { taskId, inputResponses: { city: { action: 'accept', content: { city: 'Oslo' } } } });
      await waitForStatus(t.server, taskId, ['completed']);
      await new Promise((resolve) => setTimeout(resolve, 20)); // the last write's announcement
    });
    expect(events.map((e) => e.message.status)).toEqual(['working', 'input_required', 'working', 'completed']);
    expect(new Set(events.map((e) => e.message.tool))).toEqual(new Set(['interview']));
  });

  it('refuses an input request a task cannot make (the creating call did not declare elicitation): the task fails with -32021', async () => {
    const taskId = (await taskCall(t.server, 'interview', {}, { extensions: { [TASKS_EXTENSION]: {} } })).body.result.taskId as string;
    const failed = await waitForStatus(t.server, taskId, ['failed']);
    expect(failed.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    expect(failed).not.toHaveProperty('result');
  });

  it("taskStart 'handler': input is gathered by MRTR in the call, then the call becomes a task", async () => {
    const first = await taskCall(t.server, 'ask_then_task');
    expect(first.body.result).toMatchObject({ resultType: 'input_required', inputRequests: { topic: { method: 'elicitation/create' } } });
    expect(first.body.result).not.toHaveProperty('taskId');
    const second = await post(
      t.server,
      rpc('tools/call', {
        name: 'ask_then_task',
        arguments: {},
        inputResponses: { topic: { action: 'accept', content: { topic: 'tides' } } },
        requestState: first.body.result.requestState,
        _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS }),
      }),
    );
    expect(second.body.result).toMatchObject({ resultType: 'task', status: 'working' });
    for (const key of ['requestState', 'inputRequests']) expect(second.body.result).not.toHaveProperty(key);
    const done = await waitForStatus(t.server, second.body.result.taskId, ['completed']);
    expect(done.result.content[0].text).toBe('report on tides (task before start: undefined, after: true, state: {"asked":"topic"})');
  });

  it("goes on with the round's keys in the task: a derived key never names two questions of one execution", async () => {
    const first = await taskCall(t.server, 'ask_task_ask');
    expect(first.body.result.inputRequests).toEqual({ 'elicit-1': expect.objectContaining({ params: expect.objectContaining({ message: 'First?' }) }) });
    const second = await post(
      t.server,
      rpc('tools/call', {
        name: 'ask_task_ask',
        arguments: {},
        inputResponses: { 'elicit-1': { action: 'accept', content: { ok: true } } },
        requestState: first.body.result.requestState,
        _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS }),
      }),
    );
    const taskId = second.body.result.taskId as string;
    const parked = await waitForStatus(t.server, taskId, ['input_required']);
    expect(parked.inputRequests).toEqual({ 'elicit-2': expect.objectContaining({ params: expect.objectContaining({ message: 'Second?' }) }) });
    // The first question's answer, sent again under its key, answers nothing in the task.
    await tasksRequest(t.server, 'tasks/update', { taskId, inputResponses: { 'elicit-1': { action: 'accept', content: { ok: true } } } });
    expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result.status).toBe('input_required');
    await tasksRequest(t.server, 'tasks/update', { taskId, inputResponses: { 'elicit-2': { action: 'accept', content: { ok: false } } } });
    expect((await waitForStatus(t.server, taskId, ['completed'])).result.content[0].text).toBe('first true, second false');
  });

  it('refuses startTask() while an input request of the call is unanswered: no task is made, the call ends input-required', async () => {
    const store = t.app.get<InProcessTaskStore>(McpTaskStore);
    const before = store.size;
    const res = await taskCall(t.server, 'starts_early');
    expect(res.body.result).toMatchObject({ resultType: 'input_required', inputRequests: { sure: { method: 'elicitation/create' } } });
    expect(res.body.result).not.toHaveProperty('taskId');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.size).toBe(before);
  });

  it('refuses startTask() once an answer of the call was refused: no task is made, the call ends with the refusal', async () => {
    const store = t.app.get<InProcessTaskStore>(McpTaskStore);
    const before = store.size;
    const inputResponses = { sure: { action: 'accept', content: { ok: 'yes' } } };
    const res = await post(
      t.server,
      rpc('tools/call', { name: 'starts_early', arguments: {}, inputResponses, _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS }) }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_input_response', key: 'sure' } });
    expect(store.size).toBe(before);
  });

  it('fails a task whose handler throws a method error (the error inlined); a fault is a contained tool_fault result (completed)', async () => {
    const method = (await taskCall(t.server, 'breaks', { how: 'method' })).body.result.taskId as string;
    const failed = await waitForStatus(t.server, method, ['failed', 'completed']);
    expect(failed).toMatchObject({
      status: 'failed',
      statusMessage: 'Internal error: the worker is gone.',
      error: { code: -32603, message: 'Internal error: the worker is gone.', data: { worker: 7 } },
    });
    const fault = (await taskCall(t.server, 'breaks', { how: 'fault' })).body.result.taskId as string;
    const completed = await waitForStatus(t.server, fault, ['failed', 'completed']);
    expect(completed).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(JSON.stringify(completed.result)).toContain('tool_fault');
  });

  it('runs an action as a task per its own taskSupport, its task:status events naming the action; the other actions never', async () => {
    let exported: Awaited<ReturnType<typeof taskCall>> | undefined;
    const statuses = await recordEvents(['mcp:task:status'], async () => {
      exported = await taskCall(t.server, 'reports', { action: 'export', data: {} });
      await waitForStatus(t.server, exported.body.result.taskId, ['completed']);
    });
    expect(exported!.body.result.resultType).toBe('task');
    expect(statuses.map((event) => [event.message.tool, event.message.action, event.message.status])).toEqual([
      ['reports', 'export', 'working'],
      ['reports', 'export', 'completed'],
    ]);
    const done = await waitForStatus(t.server, exported!.body.result.taskId, ['completed']);
    expect(JSON.parse(done.result.content[0].text)).toMatchObject({ exported: true, task: true });
    const peek = await taskCall(t.server, 'reports', { action: 'peek', data: {} });
    expect(peek.body.result.resultType).toBe('complete');
    expect(JSON.parse(peek.body.result.content[0].text)).toMatchObject({ task: false });
    const refused = await taskCall(t.server, 'reports', { action: 'export', data: {} }, {});
    expect(refused.body.error.code).toBe(-32021);
  });

  it('lists a legacy client no tool every run of which is a task, and every other tool, an action tool with one such action included', async () => {
    const modern = (await post(t.server, rpc('tools/list'))).body.result.tools.map((tool: { name: string }) => tool.name);
    const legacy = await legacyPost(t.server, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, legacyHeaders('2025-11-25'));
    const taskOnly = ['must_task', 'ask_then_task', 'ask_task_ask'];
    for (const name of [...taskOnly, 'reports', 'sleeper']) expect(modern).toContain(name);
    const listed = legacy.messages[0]!.result.tools.map((tool: { name: string }) => tool.name);
    expect(listed).toEqual(modern.filter((name: string) => !taskOnly.includes(name)));
    expect(listed).toContain('reports');
  });

  it("refuses one era's tools/list cursor on the other era's list, which holds other tools (-32602 invalid_cursor)", async () => {
    const paged = await createTestApp({ providers: [...TASK_TOOLS, EchoTool], options: { pageSize: 1 } });
    try {
      const headers = legacyHeaders('2025-11-25');
      const legacyList = (id: number, params: Record<string, unknown>) => legacyPost(paged.server, { jsonrpc: '2.0', id, method: 'tools/list', params }, headers);
      const modernCursor = (await post(paged.server, rpc('tools/list'))).body.result.nextCursor;
      const legacyCursor = (await legacyList(1, {})).messages[0]!.result.nextCursor;
      expect([typeof modernCursor, typeof legacyCursor]).toEqual(['string', 'string']);
      const refusal = (list: string) => ({
        code: -32602,
        message: `Invalid params: cursor is not one this server issued for ${list}; list again without a cursor.`,
        data: { reason: 'invalid_cursor' },
      });
      expect((await legacyList(2, { cursor: modernCursor })).messages[0]!.error).toEqual(refusal('tools/list (legacy era)'));
      const onModern = await post(paged.server, rpc('tools/list', { cursor: legacyCursor }));
      expect([onModern.status, onModern.body.error]).toEqual([400, refusal('tools/list')]);
    } finally {
      await paged.close();
    }
  });

  it('advertises no tasks extension to a legacy client, which cannot use it', async () => {
    const init = await legacyPost(t.server, initialize('2025-11-25'), legacyHeaders(null));
    expect(init.messages[0]!.result.capabilities).toMatchObject({ tools: {} });
    expect(init.messages[0]!.result.capabilities).not.toHaveProperty('extensions');
  });

  it('serves legacy-era clients synchronously (no tasks there): optional runs, required is -32601, as the 2025-11-25 tasks utility requires', async () => {
    const headers = legacyHeaders('2025-11-25');
    const optional = await legacyPost(t.server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sleeper', arguments: { ms: 1 } } }, headers);
    expect(optional.messages[0]!.result.content[0].text).toBe('slept 1 ms');
    const required = await legacyPost(t.server, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'must_task', arguments: {} } }, headers);
    expect(required.status).toBe(200);
    expect(required.messages[0]!.error).toEqual({
      code: -32601,
      message:
        'Method not found: tool "must_task" runs only as a task, which a client of protocol version 2025-11-25 or earlier cannot ask for here; call it with protocol version 2026-07-28 and the tasks extension.',
    });
  });
});

describe('tasks: the store bound, expiry and cleanup', () => {
  it.each([
    ['an in-process store given with its own bound quotes that bound, not tasks.maxTasks', () => new InProcessTaskStore(1), '(1, each kept'],
    ['a store of its own kind quotes no number', () => new FullStore(), '(each kept'],
  ])('refuses past the store bound: %s', async (_case, store, quoted) => {
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { store: store() } } });
    try {
      if (quoted.startsWith('(1')) await sleeping(t, 'own-bound');
      const refused = await taskCall(t.server, 'sleeper', { tag: 'own-bound-refused' });
      expect(refused.status).toBe(503);
      expect(refused.body.error.message).toBe(`Internal error: this server holds as many tasks as it may ${quoted} 3600000 ms from its creation); retry later.`);
    } finally {
      await t.close();
    }
  });

  it('refuses a task past maxTasks with 503 before its handler runs, and serves again once tasks expire', async () => {
    // The ttl is long beside the three requests before the refusal: none of the two tasks may expire before it.
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { maxTasks: 2, ttlMs: 2000 } } });
    try {
      await sleeping(t, 'bound-1');
      await sleeping(t, 'bound-2');
      const third = await taskCall(t.server, 'sleeper', { tag: 'bound-3' });
      expect(third.status).toBe(503); // a capacity refusal, as for listen streams and pending input requests
      expect(third.body.error).toEqual({
        code: -32603,
        message: 'Internal error: this server holds as many tasks as it may (2, each kept 2000 ms from its creation); retry later.',
        data: { reason: 'task_limit' },
      });
      expect(taskRuns.has('bound-3')).toBe(false); // the handler never started: a call told to retry has done nothing
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect((await taskCall(t.server, 'sleeper', { tag: 'bound-4' })).body.result.resultType).toBe('task');
    } finally {
      await t.close();
    }
  });

  it('refuses a task whose request would take the running tasks past maxRunningBytes (503, never stored, handler never run), and serves again once one ends', async () => {
    // Each call's request counts about 4,000 bytes (a body a little over 3,000 with its tag, and its header lines);
    // 10,000 let two run at once.
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { maxRunningBytes: 10_000 } } });
    const tag = (name: string) => `${name}-${'x'.repeat(3000)}`;
    try {
      const first = await sleeping(t, tag('bytes-1'));
      await sleeping(t, tag('bytes-2'));
      const third = await taskCall(t.server, 'sleeper', { tag: tag('bytes-3') });
      expect(third.status).toBe(503);
      expect(third.body.error).toMatchObject({ code: -32603, data: { reason: 'task_bytes_limit' } });
      expect(third.body.error.message).toMatch(
        /^Internal error: the tasks running on this server already hold \d+ of the 10000 bytes of requests they may, and this call's request has \d+; retry later\.$/,
      );
      expect(taskRuns.has(tag('bytes-3'))).toBe(false);
      await tasksRequest(t.server, 'tasks/cancel', { taskId: first });
      expect((await taskCall(t.server, 'sleeper', { tag: tag('bytes-4') })).body.result.resultType).toBe('task');
      // The cancelled task's bytes came back once, however many ways its run ended: two run again, and a third waits.
      expect((await taskCall(t.server, 'sleeper', { tag: tag('bytes-5') })).status).toBe(503);
    } finally {
      await t.close();
    }
  });

  it('takes a task whose request brings the running tasks exactly to maxRunningBytes', async () => {
    const args = { tag: 'exact-bytes', ms: 10 };
    const measuring = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { maxRunningBytes: 1 } } });
    let bytes: number;
    try {
      const refused = await taskCall(measuring.server, 'sleeper', args);
      bytes = Number(/this call's request has (\d+);/.exec(refused.body.error.message)![1]);
    } finally {
      await measuring.close();
    }
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { maxRunningBytes: bytes } } });
    try {
      expect((await taskCall(t.server, 'sleeper', args)).body.result.resultType).toBe('task');
    } finally {
      await t.close();
    }
  });

  it('keeps nothing of a result that arrives after its task was cancelled: the next result still fits in maxResultBytes', async () => {
    // One must_task result is 77 bytes of JSON; 100 keep it, but not it and the cancelled sleeper's result too.
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { maxResultBytes: 100 } } });
    try {
      const taskId = await sleeping(t, 'late-result');
      const stopped = nextEvent('mcp:tool:stop');
      await tasksRequest(t.server, 'tasks/cancel', { taskId });
      expect(await stopped).toMatchObject({ tool: 'sleeper', isError: false });
      const next = (await taskCall(t.server, 'must_task')).body.result.taskId as string;
      expect((await waitForStatus(t.server, next, ['completed', 'failed'])).status).toBe('completed');
    } finally {
      await t.close();
    }
  });

  it('keeps results up to maxResultBytes together: the task past it fails naming why, and one fits again once earlier tasks expire', async () => {
    // One must_task result is 77 bytes of JSON; 100 keep one at a time (the ttl long beside the second task's run).
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { maxResultBytes: 100, ttlMs: 2000 } } });
    try {
      const finished = async () => waitForStatus(t.server, (await taskCall(t.server, 'must_task')).body.result.taskId as string, ['completed', 'failed']);
      expect((await finished()).status).toBe('completed');
      const refused = await finished();
      expect(refused.status).toBe('failed');
      expect(refused.error).toEqual({
        code: -32603,
        message:
          "Internal error: the task's result (77 bytes) was not kept: with it, the results this server keeps for its tasks would exceed 100 bytes until earlier tasks expire.",
        data: { reason: 'task_results_full' },
      });
      expect(refused.statusMessage).toBe(refused.error.message);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect((await finished()).status).toBe('completed');
    } finally {
      await t.close();
    }
  });

  it('drops expired tasks without a restart: not found afterwards, a running handler aborted, nothing left in the store or the live runs', async () => {
    // The ttl is long beside the requests that count both tasks in the store before it passes.
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { ttlMs: 2000 } } });
    try {
      const running = await sleeping(t, 'expires');
      const finished = (await taskCall(t.server, 'must_task')).body.result.taskId as string;
      await waitForStatus(t.server, finished, ['completed']);
      const store = t.app.get<InProcessTaskStore>(McpTaskStore);
      expect(store.size).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 2150));
      expect(taskRuns.get('expires')!.signal.aborted).toBe(true);
      for (const taskId of [running, finished]) expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.error.data.reason).toBe('task_not_found');
      expect(store.size).toBe(0);
      expect(t.app.get(TaskRuns).running).toBe(0);
    } finally {
      await t.close();
    }
  });
});

/** The default store, slow to take a task: the creating request is still open while it stores. */
class SlowStore extends InProcessTaskStore {
  override async create(record: McpTaskRecord): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return super.create(record);
  }
}

/** A store of the application's own that is always full. */
class FullStore implements McpTaskStore {
  create(): Promise<boolean> {
    return Promise.resolve(false);
  }
  get(): Promise<McpTaskRecord | undefined> {
    return Promise.resolve(undefined);
  }
  update(): Promise<void> {
    return Promise.resolve();
  }
}

/** A store that cannot store. */
class BrokenStore extends InProcessTaskStore {
  override create(): Promise<boolean> {
    return Promise.reject(new Error('the task database is down'));
  }
}

describe('tasks: the creating request and the store', () => {
  it("does not abort a task's handler when the request that created it goes away, once the call is a task", async () => {
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { store: new SlowStore(10) } } });
    try {
      const body = rpc('tools/call', { name: 'sleeper', arguments: { tag: 'survives' }, _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS }) });
      const req = http.request({ host: '127.0.0.1', port: (t.server.address() as AddressInfo).port, path: '/mcp', method: 'POST', headers: mirroredHeaders(body) });
      req.on('error', () => undefined);
      req.end(JSON.stringify(body));
      await until(() => taskRuns.has('survives'), 'the handler to start');
      req.destroy(); // the client goes away while the task is being stored
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(taskRuns.get('survives')!.signal.aborted).toBe(false);
      expect(t.app.get(TaskRuns).running).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('answers -32603 when the store fails, never starts the handler, and announces nothing', async () => {
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { store: new BrokenStore(10) } } });
    try {
      let res: Awaited<ReturnType<typeof taskCall>> | undefined;
      const events = await recordEvents(['mcp:task:status'], async () => {
        res = await taskCall(t.server, 'sleeper', { tag: 'unstored' });
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      expect(res!.body.error.code).toBe(-32603);
      expect(JSON.stringify(res!.body)).not.toContain('database');
      expect(taskRuns.has('unstored')).toBe(false);
      expect(t.app.get(TaskRuns).running).toBe(0);
      expect(events).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

/** A store whose writes wait while `held` is set (a slow shared store). */
class HeldWritesStore extends InProcessTaskStore {
  held: Promise<void> | undefined;
  override async update(record: McpTaskRecord): Promise<void> {
    await this.held;
    return super.update(record);
  }
}

describe('tasks: several instances sharing one store (docs/tasks.md)', () => {
  const shared = new InProcessTaskStore(100);
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { store: shared } } });
    b = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { store: shared } } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  const answers = { name: { action: 'accept', content: { name: 'Ada' } }, city: { action: 'accept', content: { city: 'Oslo' } } };

  it.each([
    ['tasks/update', { inputResponses: answers }],
    ['tasks/cancel', {}],
  ])('refuses %s of a task whose handler runs on another instance (503 + -32603, task_elsewhere), changing nothing', async (method, params) => {
    const taskId = (await taskCall(a.server, 'interview')).body.result.taskId as string;
    await waitForStatus(a.server, taskId, ['input_required']);
    const elsewhere = await tasksRequest(b.server, method, { taskId, ...params });
    expect(elsewhere.status).toBe(503);
    expect(elsewhere.body.error).toMatchObject({ code: -32603, data: { reason: 'task_elsewhere', taskId } });
    expect(elsewhere.body.error.message).toContain('send the requests for a task to the instance that created it');
    // Any instance reads it; nothing reached it.
    expect((await tasksRequest(b.server, 'tasks/get', { taskId })).body.result.status).toBe('input_required');
    expect((await tasksRequest(a.server, method, { taskId, ...params })).body.result).toMatchObject({ resultType: 'complete' });
    expect((await waitForStatus(a.server, taskId, ['completed', 'cancelled'])).status).toBe(method === 'tasks/update' ? 'completed' : 'cancelled');
    // Once it has ended, every instance acknowledges (a no-op, as on the instance that ran it).
    expect((await tasksRequest(b.server, method, { taskId, ...params })).body.result).toMatchObject({ resultType: 'complete' });
  });
});

describe('tasks: tasks/cancel with a store slow to write', () => {
  it('acknowledges once the store holds the cancelled status, so a tasks/get after it reads cancelled; a second cancel meanwhile is acknowledged too', async () => {
    const store = new HeldWritesStore(10);
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { store } } });
    try {
      const taskId = await sleeping(t, 'held-cancel');
      let release!: () => void;
      store.held = new Promise((resolve) => (release = resolve));
      let acknowledged = 0;
      const cancels = [tasksRequest(t.server, 'tasks/cancel', { taskId }), tasksRequest(t.server, 'tasks/cancel', { taskId })].map((cancel) =>
        cancel.then((res) => ((acknowledged += 1), res)),
      );
      await until(() => taskRuns.get('held-cancel')?.signal.aborted === true, 'the cancel to reach the run');
      await sleep(50);
      expect(acknowledged).toBe(0); // the cancelled status is not in the store yet
      expect((await store.get(taskId))?.status).toBe('working');
      release();
      for (const res of await Promise.all(cancels)) {
        expect(res.status).toBe(200);
        expect(res.body.result).toMatchObject({ resultType: 'complete' });
      }
      expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result.status).toBe('cancelled');
      await until(() => t.app.get(TaskRuns).running === 0, 'the run to end');
    } finally {
      await t.close();
    }
  });
});

/** A store whose reads answer what it held when asked, but only once `heldReads` (if set) resolves: a slow shared store. */
class HeldReadsStore extends InProcessTaskStore {
  heldReads: Promise<void> | undefined;
  reads = 0;
  override async get(taskId: string): Promise<McpTaskRecord | undefined> {
    const record = await super.get(taskId);
    this.reads += 1;
    await this.heldReads;
    return record;
  }
}

describe('tasks: tasks/update and tasks/cancel racing the end of a task run here', () => {
  it.each([
    ['tasks/cancel', {}],
    ['tasks/update', { inputResponses: {} }],
  ])('acknowledges %s of a task that ended here while its record was being read (never task_elsewhere)', async (method, params) => {
    const store = new HeldReadsStore(10);
    const t = await createTestApp({ providers: TASK_TOOLS, options: { tasks: { store } } });
    try {
      const tag = `race-${method}`;
      const taskId = await sleeping(t, tag);
      let release!: () => void;
      store.heldReads = new Promise((resolve) => (release = resolve));
      const reads = store.reads;
      const answer = tasksRequest(t.server, method, { taskId, ...params }).then((res) => res);
      await until(() => store.reads > reads, 'the request to read the task');
      taskRuns.get(tag)!.wake!(); // the task completes here while the read is under way
      await until(() => t.app.get(TaskRuns).running === 0, 'the run to end');
      release();
      const res = await answer;
      expect(res.body).toMatchObject({ result: { resultType: 'complete' } });
      expect(res.status).toBe(200);
      store.heldReads = undefined;
      expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result.status).toBe('completed');
    } finally {
      await t.close();
    }
  });
});

/** Logs in its call, becomes a task, logs and reports progress in the task. */
@McpTool({
  name: 'logs_then_task',
  description: 'Logs, runs as a task, logs.',
  inputSchema: { type: 'object', properties: {} },
  taskSupport: 'required',
  taskStart: 'handler',
})
class LogsThenTaskTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    ctx.log.info('in the call');
    await ctx.startTask();
    ctx.log.info('in the task');
    ctx.progress(1);
    return 'done';
  }
}

describe('tasks: no log or progress on the creating request once the call is a task', () => {
  it('sends a log message made before ctx.startTask(), and none after it, though the logger was built before', async () => {
    const t = await createTestApp({ providers: [LogsThenTaskTool] });
    try {
      const caps = { 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS, 'io.modelcontextprotocol/logLevel': 'debug', progressToken: 'p' };
      const res = await post(t.server, rpc('tools/call', { name: 'logs_then_task', arguments: {}, _meta: meta(caps) }));
      const messages = answerMessages(res);
      const created = finalMessage(res);
      expect(created).toMatchObject({ result: { resultType: 'task' } });
      expect(messages.slice(0, -1)).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'in the call', logger: 'logs_then_task' } }]);
      expect((await waitForStatus(t.server, created.result.taskId, ['completed'])).result.content[0].text).toBe('done');
    } finally {
      await t.close();
    }
  });
});

describe('tasks: shutdown', () => {
  it('cancels the tasks still running when the application closes (their handlers aborted)', async () => {
    const t = await createTestApp({ providers: TASK_TOOLS });
    await sleeping(t, 'at-shutdown');
    expect(taskRuns.get('at-shutdown')!.signal.aborted).toBe(false);
    await t.close();
    expect(taskRuns.get('at-shutdown')!.signal.aborted).toBe(true);
    expect(t.app.get(TaskRuns).running).toBe(0);
  });

  it('still reads each task as it stands while the server finishes its answers under way (completed, or cancelled by the close), and starts none', async () => {
    const t = await createTestApp({ providers: [...TASK_TOOLS, LogsThenTaskTool] });
    const done = (await taskCall(t.server, 'sleeper', { ms: 1 })).body.result.taskId as string;
    await waitForStatus(t.server, done, ['completed']);
    const running = await sleeping(t, 'running-at-close');
    // A plain call under way holds the close in its grace (shutdownGraceMs), while the mount still answers.
    const underWay = post(t.server, rpc('tools/call', { name: 'sleeper', arguments: { ms: 500 } })).then((res) => res);
    await sleep(50);
    const closing = t.close();
    await until(() => taskRuns.get('running-at-close')!.signal.aborted, 'the close to cancel the running task');
    const read = async (taskId: string) => (await tasksRequest(t.server, 'tasks/get', { taskId })).body;
    expect(await read(done)).toMatchObject({ result: { taskId: done, status: 'completed' } });
    expect(await read(running)).toMatchObject({ result: { taskId: running, status: 'cancelled' } });
    // A call that would start a task is refused, as it starts or when its handler calls ctx.startTask(): none is stored.
    const stored = t.app.get<InProcessTaskStore>(McpTaskStore).size;
    for (const tool of ['sleeper', 'logs_then_task']) {
      const refused = await taskCall(t.server, tool, tool === 'sleeper' ? { tag: 'after-close' } : {});
      expect([refused.status, refused.body.error]).toEqual([503, expect.objectContaining({ code: -32603, data: { reason: 'shutting_down' } })]);
    }
    expect(taskRuns.has('after-close')).toBe(false);
    expect(t.app.get<InProcessTaskStore>(McpTaskStore).size).toBe(stored);
    expect((await underWay).body.result.content[0].text).toBe('slept 500 ms');
    await closing;
  });
});

/** An action tool declaring its task mode once, on the tool; its action `inherit` declares none of its own. */
@McpTool({ name: 'jobs', description: 'Jobs.', taskSupport: 'optional', taskStart: 'handler' })
class JobsTool {
  @McpAction({ description: 'Runs a job, becoming a task on the way.', properties: {} })
  async inherit(_data: unknown, ctx: McpContext) {
    const before = ctx.taskId !== undefined;
    await ctx.startTask();
    return { before, after: ctx.taskId !== undefined };
  }
}

describe('tasks: declarations', () => {
  it("gives an action that declares nothing its tool's taskSupport and taskStart", async () => {
    const t = await createTestApp({ providers: [JobsTool] });
    try {
      const created = await taskCall(t.server, 'jobs', { action: 'inherit', data: {} });
      expect(created.body.result.resultType).toBe('task');
      const done = await waitForStatus(t.server, created.body.result.taskId, ['completed']);
      expect(JSON.parse(done.result.content[0].text)).toEqual({ before: false, after: true });
    } finally {
      await t.close();
    }
  });

  it('does not advertise the extension, nor serve its methods, when no tool supports tasks', async () => {
    const t = await createTestApp({ providers: [EchoTool] });
    try {
      const discover = await post(t.server, rpc('server/discover'));
      expect(discover.body.result.capabilities.extensions).toBeUndefined();
      const get = await tasksRequest(t.server, 'tasks/get', { taskId: 'x' });
      expect(get.status).toBe(404);
      expect(get.body.error.code).toBe(-32601);
    } finally {
      await t.close();
    }
  });

  it.each([
    [{ taskSupport: 'sometimes' }, 'taskSupport must be "optional" or "required", got "sometimes"'],
    [{ taskStart: 'handler' }, 'taskStart is given without taskSupport'],
    [{ taskSupport: 'optional', taskStart: 'later' }, 'taskStart must be "call" or "handler", got "later"'],
  ])('refuses %j at module init', async (declared, message) => {
    @McpTool({ name: 'odd', description: 'Odd.', inputSchema: { type: 'object', properties: {} }, ...(declared as object) })
    class OddTool {
      run() {
        return 'odd';
      }
    }
    const failure = await createTestApp({ providers: [OddTool] }).then(
      async (app) => (await app.close(), undefined),
      (thrown: unknown) => thrown,
    );
    expect(failure).toBeInstanceOf(McpConfigurationError);
    expect((failure as Error).message).toContain('tool "odd"');
    expect((failure as Error).message).toContain(message);
  });
});

/** What the input request a task makes after its first one was rejected (the task cancelled) rejected with. */
const askedAgain: string[] = [];

/** Asks inside its task; once that is rejected, asks again. */
@McpTool({ name: 'asks_again', description: 'Asks, and asks again.', inputSchema: { type: 'object', properties: {} }, taskSupport: 'optional' })
class AsksAgainTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const form = { message: 'Name?', requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } } };
    await ctx.elicit(form, { key: 'first' }).catch(() => ctx.elicit(form, { key: 'second' }).catch((error: Error) => askedAgain.push(error.message)));
    return 'done';
  }
}

describe('tasks: an input request made after the task was cancelled', () => {
  it('rejects at once with why the task ended, never parking the task again', async () => {
    const t = await createTestApp({ providers: [AsksAgainTool] });
    try {
      const taskId = (await taskCall(t.server, 'asks_again')).body.result.taskId as string;
      await waitForStatus(t.server, taskId, ['input_required']);
      await tasksRequest(t.server, 'tasks/cancel', { taskId });
      await until(() => askedAgain.length > 0, 'the second input request to settle');
      expect(askedAgain).toEqual(['the task was cancelled']);
      expect((await tasksRequest(t.server, 'tasks/get', { taskId })).body.result.status).toBe('cancelled');
    } finally {
      await t.close();
    }
  });
});

/** How each `late_start` call's `ctx.startTask()`, made once its client left, went. */
const lateStarts: string[] = [];

/** Waits for its call to be cancelled (its client left), then tries to become a task. */
@McpTool({
  name: 'late_start',
  description: 'Starts a task after its client left.',
  inputSchema: { type: 'object', properties: {} },
  taskSupport: 'optional',
  taskStart: 'handler',
})
class LateStartTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    lateStarts.push('running');
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    await ctx.startTask().then(
      () => lateStarts.push('started'),
      (error: Error) => lateStarts.push(`refused: ${error.message}`),
    );
    return 'done';
  }
}

describe('tasks: startTask() once the call was cancelled', () => {
  it('is refused, and no task is stored', async () => {
    const t = await createTestApp({ providers: [LateStartTool] });
    try {
      const req = leavingRequest(t.server, rpc('tools/call', { name: 'late_start', arguments: {}, _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS }) }));
      await until(() => lateStarts.length > 0, 'the handler to start');
      req.destroy();
      await until(() => lateStarts.length > 1, 'the late startTask() to settle');
      expect(lateStarts).toEqual(['running', 'refused: startTask() was called after the call was cancelled (its client went away)']);
      expect(t.app.get<InProcessTaskStore>(McpTaskStore).size).toBe(0);
    } finally {
      await t.close();
    }
  });
});

/** The question each `asks_late` task asks once its handler has returned, by its tag: a test asks it. */
const lateAsks = new Map<string, () => Promise<unknown>>();

/** Returns at once, leaving a question for a test to ask afterwards (a continuation the handler did not await). */
@McpTool({ name: 'asks_late', description: 'Answers, then asks.', inputSchema: { type: 'object', properties: { tag: { type: 'string' } } }, taskSupport: 'optional' })
class AsksLateTool implements McpPlainTool {
  run(args: { tag: string }, ctx: McpContext) {
    const form = { message: 'Too late?', requestedSchema: { type: 'object' as const, properties: {} } };
    lateAsks.set(args.tag, () => ctx.elicit(form, { key: 'late' }));
    return 'done';
  }
}

describe('tasks: an input request made after the task completed', () => {
  it('rejects it at once, leaving the task completed with its result, never parking it', async () => {
    const t = await createTestApp({ providers: [AsksLateTool] });
    try {
      const taskId = (await taskCall(t.server, 'asks_late', { tag: 'late' })).body.result.taskId as string;
      await waitForStatus(t.server, taskId, ['completed']);
      // It never settled: the continuation that asked waited for ever.
      await expect(lateAsks.get('late')!()).rejects.toMatchObject({ name: 'TaskEnded', message: 'the task is completed: its context can no longer ask for input' });
      const task = (await tasksRequest(t.server, 'tasks/get', { taskId })).body.result;
      expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } });
      expect(task).not.toHaveProperty('inputRequests');
    } finally {
      await t.close();
    }
  });
});

/** Becomes a task and, when that is refused, goes on regardless (a handler that ignores the refusal). */
@McpTool({
  name: 'ignores_refusal',
  description: 'Starts a task, ignoring a refusal.',
  inputSchema: { type: 'object', properties: { tag: { type: 'string' } } },
  taskSupport: 'optional',
  taskStart: 'handler',
})
class IgnoresRefusalTool implements McpPlainTool {
  async run(args: { tag: string }, ctx: McpContext) {
    await ctx.startTask().catch(() => undefined);
    taskRuns.set(args.tag, { signal: ctx.signal });
    return 'went on';
  }
}

describe('tasks: a handler whose ctx.startTask() is refused', () => {
  it('is aborted, and its call is answered with the refusal (503 task_limit), not its result', async () => {
    const t = await createTestApp({ providers: [IgnoresRefusalTool], options: { tasks: { store: new FullStore() } } });
    try {
      const refused = await taskCall(t.server, 'ignores_refusal', { tag: 'ignores-refusal' });
      expect([refused.status, refused.body.error?.data]).toEqual([503, { reason: 'task_limit' }]);
      await until(() => taskRuns.has('ignores-refusal'), 'the handler to go on');
      expect(taskRuns.get('ignores-refusal')!.signal.aborted).toBe(true);
    } finally {
      await t.close();
    }
  });
});

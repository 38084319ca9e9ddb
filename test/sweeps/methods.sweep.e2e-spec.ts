import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { LEGACY_METHODS, MCP_METHODS, REMOVED_METHODS, TASKS_METHODS, type LegacyMethod, type McpMethod, type TasksMethod } from '../../lib/index.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { GreetPrompt, Salutations } from '../prompts/test-prompts.js';
import { XResource } from '../resources/fixture-resources.js';
import { EchoTool } from '../support/fixture-tools.js';
import { initialize, legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { mirroredHeaders, post, rejectionOf, rpc } from '../support/mcp-client.js';
import { MustTaskTool, TASK_CAPS, taskCall, tasksRequest } from '../support/task-tools.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const schema = await ProtocolSchema.vendored();

/**
 * One cell per method of MCP_METHODS: a valid request, and whether this build serves it. A served method
 * answers 200 with a result valid against the protocol schema; an unserved one 404 + -32601. The record is
 * closed over McpMethod, so a new method fails the type check until it has a cell.
 */
const CELLS = {
  'server/discover': { params: {}, served: true, result: 'DiscoverResult' },
  'tools/list': { params: {}, served: true, result: 'ListToolsResult' },
  'tools/call': { params: { name: 'echo', arguments: { text: 'x' } }, served: true, result: 'CallToolResult' },
  'resources/list': { params: {}, served: true, result: 'ListResourcesResult' },
  'resources/templates/list': { params: {}, served: true, result: 'ListResourceTemplatesResult' },
  'resources/read': { params: { uri: 'test://x' }, served: true, result: 'ReadResourceResult' },
  'prompts/list': { params: {}, served: true, result: 'ListPromptsResult' },
  'prompts/get': { params: { name: 'greet', arguments: { name: 'Ada' } }, served: true, result: 'GetPromptResult' },
  'completion/complete': { params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } }, served: true, result: 'CompleteResult' },
  // A stream: its first message is checked (the result ends it at shutdown: test/e2e/subscriptions.e2e-spec.ts).
  'subscriptions/listen': { params: { notifications: { toolsListChanged: true } }, served: true, streamed: 'SubscriptionsAcknowledgedNotification' },
} satisfies Record<McpMethod, { params: Record<string, unknown>; served: boolean; result?: string; streamed?: string }>;

/** The first SSE message of a request's answer; the client then goes away. */
async function firstEvent(server: Server, body: Record<string, unknown>): Promise<{ status: number; message: Record<string, any> }> {
  const controller = new AbortController();
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, {
    method: 'POST',
    headers: mirroredHeaders(body),
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
  controller.abort();
  return { status: res.status, message: JSON.parse(text.slice(text.indexOf('data: ') + 6, text.indexOf('\n\n'))) as Record<string, any> };
}

/**
 * One cell per method of LEGACY_METHODS: a valid legacy request, and the top-level keys of its result when this
 * build serves it (a legacy result carries none of `resultType`, `ttlMs`, `cacheScope`); else 404 + -32601.
 */
const LEGACY_CELLS = {
  initialize: { params: initialize().params, result: ['protocolVersion', 'capabilities', 'serverInfo'] },
  ping: { params: {}, result: [] },
  'logging/setLevel': { params: { level: 'info' }, result: [] },
  'tools/list': { params: {}, result: ['tools'] },
  'tools/call': { params: { name: 'echo', arguments: { text: 'x' } }, result: ['content'] },
  'resources/list': { params: {}, result: ['resources'] },
  'resources/templates/list': { params: {}, result: ['resourceTemplates'] },
  'resources/read': { params: { uri: 'test://x' }, result: ['contents'] },
  'resources/subscribe': { params: { uri: 'test://x' }, result: [] },
  'resources/unsubscribe': { params: { uri: 'test://x' }, result: [] },
  'prompts/list': { params: {}, result: ['prompts'] },
  'prompts/get': { params: { name: 'greet', arguments: { name: 'Ada' } }, result: ['messages'] },
  'completion/complete': { params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } }, result: ['completion'] },
  'tasks/get': { params: { taskId: 't' } },
  'tasks/result': { params: { taskId: 't' } },
  'tasks/list': { params: {} },
  'tasks/cancel': { params: { taskId: 't' } },
} satisfies Record<LegacyMethod, { params: Record<string, unknown>; result?: string[] }>;

/**
 * One cell per method of TASKS_METHODS (the tasks extension): its params for a task. Each is served only where some
 * tool runs tasks, answers -32021 without the extension declared, and -32602 for an id it does not know.
 */
const TASK_CELLS = {
  'tasks/get': (taskId: string) => ({ taskId }),
  'tasks/update': (taskId: string) => ({ taskId, inputResponses: {} }),
  'tasks/cancel': (taskId: string) => ({ taskId }),
} satisfies Record<TasksMethod, (taskId: string) => Record<string, unknown>>;

describe('tasks methods sweep', () => {
  let tasks: TestApp;
  beforeAll(async () => {
    tasks = await createTestApp({ providers: [MustTaskTool] });
  });
  afterAll(() => tasks.close());

  describe.each(TASKS_METHODS)('%s', (method) => {
    it('answers a known task with a complete result, -32602 for an unknown id, 400 + -32021 without the extension', async () => {
      const taskId = (await taskCall(tasks.server, 'must_task')).body.result.taskId as string;
      const known = await tasksRequest(tasks.server, method, TASK_CELLS[method](taskId));
      expect(known.status).toBe(200);
      expect(known.body.result.resultType).toBe('complete');
      const unknown = await tasksRequest(tasks.server, method, TASK_CELLS[method]('no-such-task'));
      expect(unknown.body.error).toMatchObject({ code: -32602, data: { reason: 'task_not_found' } });
      const undeclared = await tasksRequest(tasks.server, method, TASK_CELLS[method](taskId), { ...TASK_CAPS, extensions: {} });
      expect(undeclared.status).toBe(400);
      expect(undeclared.body.error.code).toBe(-32021);
    });

    it('is not served (404 + -32601) where no tool runs tasks', async () => {
      const t = await createTestApp({ providers: [EchoTool] });
      try {
        const res = await tasksRequest(t.server, method, TASK_CELLS[method]('x'));
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe(-32601);
        expect(res.body.error.message).toBe(`Method not found: ${method} belongs to the tasks extension, which this server does not offer (no tool runs as a task).`);
      } finally {
        await t.close();
      }
    });
  });
});

describe('methods sweep', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [XResource, EchoTool, Salutations, GreetPrompt] });
  });
  afterAll(() => t.close());

  it("lists exactly the methods of the spec's ClientRequest union", () => {
    const document = JSON.parse(readFileSync(new URL('../../lib/schema/mcp-2026-07-28.schema.json', import.meta.url), 'utf8')) as {
      $defs: Record<string, { anyOf?: { $ref: string }[]; properties?: { method?: { const?: string } } }>;
    };
    const methods = document.$defs.ClientRequest!.anyOf!.map(({ $ref }) => document.$defs[$ref.split('/').at(-1)!]!.properties!.method!.const);
    expect([...MCP_METHODS].sort()).toEqual(methods.sort());
  });

  describe.each(MCP_METHODS)('%s', (method) => {
    const cell: { params: Record<string, unknown>; served: boolean; result?: string; streamed?: string } = CELLS[method];
    it(cell.served ? 'is served: 200 and a schema-valid result' : 'is not served: 404 + -32601, marked unknown_method', async () => {
      const body = rpc(method, cell.params, `m-${method}`);
      if (cell.streamed) {
        const { status, message } = await firstEvent(t.server, body);
        expect(status).toBe(200);
        expect(schema.check(cell.streamed, message)).toEqual([]);
        return;
      }
      let res: any;
      const mark = await rejectionOf(async () => (res = await post(t.server, body)));
      if (cell.served) {
        expect(res.status).toBe(200);
        expect(schema.check(cell.result!, res.body.result)).toEqual([]);
        expect(mark).toBeUndefined();
      } else {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ id: `m-${method}`, error: { code: -32601 } });
        expect(mark).toEqual({ rejecter: 'method-routing', reason: 'unknown_method' });
      }
    });

    it('is refused with 400 + -32020 when its Mcp-Method header names another method (header binding holds on every method)', async () => {
      let res: any;
      const other = method === 'tools/list' ? 'tools/call' : 'tools/list';
      const mark = await rejectionOf(async () => (res = await post(t.server, rpc(method, cell.params, `h-${method}`), { 'mcp-method': other })));
      expect([res.status, res.body.id, res.body.error?.code, res.body.error?.data]).toEqual([400, `h-${method}`, -32020, { header: 'Mcp-Method' }]);
      expect(mark).toEqual({ rejecter: 'header-binding-check', reason: 'header_mismatch' });
    });
  });

  it('counts as removed exactly the legacy methods 2026-07-28 lacks', () => {
    const lacked = LEGACY_METHODS.filter((method) => !(MCP_METHODS as readonly string[]).includes(method));
    expect([...REMOVED_METHODS].sort()).toEqual(lacked.sort());
  });

  describe.each(REMOVED_METHODS)('removed method %s', (method) => {
    it('is answered 404 + -32601 with the removed_method mark', async () => {
      const mark = await rejectionOf(async () => {
        const res = await post(t.server, rpc(method, {}, 'x'));
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe(-32601);
      });
      expect(mark).toEqual({ rejecter: 'method-routing', reason: 'removed_method' });
    });
  });

  describe.each(LEGACY_METHODS)('legacy method %s', (method) => {
    const cell: { params: Record<string, unknown>; result?: string[] } = LEGACY_CELLS[method];
    it(cell.result ? 'is served on the legacy era: 200 and a result in the legacy shape' : 'is not served: -32601, sent with 200 on the legacy era', async () => {
      const res = await legacyPost(t.server, { jsonrpc: '2.0', id: `l-${method}`, method, params: cell.params }, legacyHeaders(method === 'initialize' ? null : '2025-11-25'));
      if (cell.result) {
        expect(res.status).toBe(200);
        expect(Object.keys(res.messages[0]!.result).sort()).toEqual([...cell.result].sort());
      } else {
        expect(res.status).toBe(200);
        expect(res.messages[0]).toMatchObject({ id: `l-${method}`, error: { code: -32601 } });
      }
    });
  });
});

import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';

import { ERAS, LEGACY_PROTOCOL_VERSIONS, McpAuthDecision, McpTool, type McpEra, type McpContext } from '../../lib/index.js';
import { PendingInputRequests } from '../../lib/mrtr/pending-input-requests.js';
import { EchoTool } from '../support/fixture-tools.js';
import { initialize, legacyHeaders, legacyPost, legacyToolCall, type Reply } from '../support/legacy-client.js';
import { meta, mirroredHeaders, recordEvents, rpc } from '../support/mcp-client.js';
import { AskTool, ConfirmDeleteTool, DegradeTool, GatherTool, LogsTool, MisuseTool, sideEffects } from '../support/mrtr-tools.js';
import { useTestApp } from '../support/suite-app.js';
import { SleeperTool } from '../support/task-tools.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

/** Names the client and the protocol version its context names. */
@McpTool({ name: 'client_info', description: 'Names the client.', inputSchema: { type: 'object', properties: {} } })
class ClientInfoTool {
  run(_args: unknown, ctx: McpContext) {
    return { clientInfo: ctx.clientInfo ?? null, protocolVersion: ctx.protocolVersion };
  }
}

/** Names the `x-trace` header its context carries. */
@McpTool({ name: 'request_header', description: 'Names a request header.', inputSchema: { type: 'object', properties: {} } })
class RequestHeaderTool {
  run(_args: unknown, ctx: McpContext) {
    return { trace: ctx.headers['x-trace'] ?? null };
  }
}

const TOOLS = [EchoTool, ConfirmDeleteTool, GatherTool, DegradeTool, LogsTool, AskTool, ClientInfoTool, RequestHeaderTool];
const accept = (content: Record<string, unknown>) => ({ result: { action: 'accept', content } });

/**
 * One cell per era (ERAS, closed by `satisfies`): requests of every shape that must be classified in it, each a
 * tools/call of `echo`, whose `mcp:tool:start` event names the era it ran in.
 */
const CLASSIFIED = {
  modern: [
    { shape: 'per-request _meta and the modern header', body: rpc('tools/call', { name: 'echo', arguments: { text: 'x' } }), headers: undefined, status: 200 },
    {
      shape: '_meta with the protocol fields and a legacy header (then refused by header binding)',
      body: rpc('tools/call', { name: 'echo', arguments: { text: 'x' } }),
      headers: { ...mirroredHeaders(rpc('tools/call', { name: 'echo' })), 'mcp-protocol-version': '2025-11-25' },
      status: 400,
    },
    {
      shape: 'the modern header without _meta (then refused by the protocol-fields check)',
      body: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
      headers: { ...legacyHeaders('2026-07-28'), 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      status: 400,
    },
  ],
  legacy: [
    {
      shape: 'no _meta, a 2025-11-25 header',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
      headers: legacyHeaders(),
      status: 200,
    },
    {
      shape: 'no _meta, no header',
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
      headers: legacyHeaders(null),
      status: 200,
    },
    {
      shape: 'no _meta, a header that is no revision date though later as a string (then refused by the version check)',
      body: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
      headers: legacyHeaders('v9'),
      status: 400,
    },
    ...['v2026-07-28', '2026-07-28x'].map((header, id) => ({
      shape: `no _meta, a header (${header}) holding a modern revision and more (then refused by the version check)`,
      body: { jsonrpc: '2.0', id: 6 + id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
      headers: legacyHeaders(header),
      status: 400,
    })),
    {
      shape: '_meta with a progressToken only',
      body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: 'p' } } },
      headers: legacyHeaders('2025-06-18'),
      status: 200,
    },
  ],
} satisfies Record<McpEra, { shape: string; body: Record<string, unknown>; headers: Record<string, string> | undefined; status: number }[]>;

describe('two eras on one mount', () => {
  const app = useTestApp({ providers: TOOLS, options: { instructions: 'Be kind.' } });

  describe.each(ERAS)('era classification: %s', (era) => {
    it.each(CLASSIFIED[era].map((cell) => [cell.shape, cell] as const))('classifies %s as this era', async (_shape, cell) => {
      let status = 0;
      const events = await recordEvents(['mcp:tool:start', 'mcp:wire:reject'], async () => {
        status = (await legacyPost(app().server, cell.body, cell.headers ?? mirroredHeaders(cell.body))).status;
      });
      expect(status).toBe(cell.status);
      expect(events.map((e) => e.message.era)).toEqual([era]);
    });
  });

  it.each(ERAS)("hands a tool called on the %s era the request's headers as Node parsed them (ctx.headers)", async (era) => {
    const params = { name: 'request_header', arguments: {} };
    const body = era === 'modern' ? rpc('tools/call', params) : { jsonrpc: '2.0', id: 1, method: 'tools/call', params };
    const res = await legacyPost(app().server, body, { ...(era === 'modern' ? mirroredHeaders(body) : legacyHeaders()), 'x-trace': 'abc' });
    expect(JSON.parse(res.messages[0]!.result.content[0].text)).toEqual({ trace: 'abc' });
  });

  describe('initialize', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('negotiates %s, the version the client asked for', async (version) => {
      const res = await legacyPost(app().server, initialize(version), legacyHeaders(null));
      expect(res.status).toBe(200);
      expect(res.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}\./); // test/e2e/session-id.e2e-spec.ts
      expect(res.messages).toEqual([
        {
          jsonrpc: '2.0',
          id: 'init',
          result: {
            protocolVersion: version,
            capabilities: { tools: {}, logging: {} },
            serverInfo: { name: 'test-server', version: '1.0.0' },
            instructions: 'Be kind.',
          },
        },
      ]);
    });

    it.each(['2024-10-07', '2026-07-28', 'draft'])('answers an unserved version (%s) with the newest legacy one', async (version) => {
      const res = await legacyPost(app().server, initialize(version), legacyHeaders(null));
      expect(res.messages[0]!.result.protocolVersion).toBe(LEGACY_PROTOCOL_VERSIONS[0]);
    });

    it('refuses an initialize without clientInfo with -32602, sent with 200 as a legacy client reads errors', async () => {
      const body = initialize();
      delete (body.params as Record<string, unknown>).clientInfo;
      const res = await legacyPost(app().server, body, legacyHeaders(null));
      expect(res.status).toBe(200);
      expect(res.messages[0]!.error.code).toBe(-32602);
    });

    it('accepts notifications/initialized with 202 and no body', async () => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', method: 'notifications/initialized' });
      expect({ status: res.status, messages: res.messages }).toEqual({ status: 202, messages: [] });
    });
  });

  describe('the MCP-Protocol-Version header of a legacy request', () => {
    it.each([
      ['absent (read as 2025-03-26)', null],
      ['a served revision', '2025-06-18'],
    ])('%s: served', async (_case, version) => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, legacyHeaders(version));
      expect(res.status).toBe(200);
    });

    it('naming a revision not served: 400 + -32022 listing the legacy revisions', async () => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, legacyHeaders('2024-10-07'));
      expect(res.status).toBe(400);
      expect(res.messages[0]!.error).toMatchObject({ code: -32022, data: { supported: [...LEGACY_PROTOCOL_VERSIONS], requested: '2024-10-07' } });
    });

    it.each([
      ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
      ['a response (to an input request no one asked)', { jsonrpc: '2.0', id: 'mcp-input-none', result: {} }],
    ])('on %s, held to the same: a revision not served is 400 + -32022, a served one or none passes', async (_case, body) => {
      const refused = await legacyPost(app().server, body, legacyHeaders('1999-01-01'));
      expect(refused.status).toBe(400);
      expect(refused.messages[0]!.error).toMatchObject({ code: -32022, data: { supported: [...LEGACY_PROTOCOL_VERSIONS], requested: '1999-01-01' } });
      for (const version of ['2025-06-18', null]) {
        const passed = await legacyPost(app().server, body, legacyHeaders(version));
        expect(passed.messages[0]?.error?.code).not.toBe(-32022);
        expect(passed.status).toBe('result' in body ? 400 : 202); // the response still answers no waiting request
      }
    });
  });

  describe('legacy methods and results', () => {
    it('answers ping and logging/setLevel with an empty result', async () => {
      for (const body of [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'warning' } },
      ])
        expect((await legacyPost(app().server, body)).messages[0]).toEqual({ jsonrpc: '2.0', id: body.id, result: {} });
    });

    it('gives a legacy tool no ctx.clientInfo, even when its request names one in its own _meta', async () => {
      const res = await legacyPost(app().server, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'client_info', arguments: {}, _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'claimed', version: '1' } } },
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.messages[0]!.result.content[0].text)).toEqual({ clientInfo: null, protocolVersion: '2025-11-25' });
    });

    it.each([
      ['its MCP-Protocol-Version header', legacyHeaders('2025-06-18'), '2025-06-18'],
      ['no header: the legacy default', legacyHeaders(null), '2025-03-26'],
    ])('gives a legacy tool the protocol version of %s (ctx.protocolVersion)', async (_, headers, version) => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'client_info', arguments: {} } }, headers);
      expect(JSON.parse(res.messages[0]!.result.content[0].text).protocolVersion).toBe(version);
    });

    it('refuses logging/setLevel with an unknown level (-32602, with 200)', async () => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'loud' } });
      expect(res.status).toBe(200);
      expect(res.messages[0]!.error.code).toBe(-32602);
    });

    it('sends results without the fields only 2026-07-28 has (resultType, caching hints, serverInfo _meta)', async () => {
      const list = (await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).messages[0]!.result;
      expect(Object.keys(list)).toEqual(['tools']);
      const call = (await legacyPost(app().server, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } })).messages[0]!.result;
      expect(call).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    });

    it.each([
      [
        'server/discover',
        'Method not found: "server/discover" is a method of protocol version 2026-07-28, and this request reads as one of an earlier version: a 2026-07-28 request names its version in params._meta["io.modelcontextprotocol/protocolVersion"] and the MCP-Protocol-Version header.',
      ],
      ['no/such-method', 'Method not found: "no/such-method".'],
      ['resources/list', 'Method not found: "resources/list" is not served by this server (it advertises no "resources" capability).'],
    ])('answers %s on the legacy era with -32601, sent with 200', async (method, message) => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method, params: {} });
      expect(res.status).toBe(200);
      expect(res.messages[0]!.error).toEqual({ code: -32601, message });
    });

    it("bounds an unknown method's name in its refusal to 80 characters, quotes included", async () => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method: `a/${'x'.repeat(200)}`, params: {} });
      expect(res.messages[0]!.error).toEqual({ code: -32601, message: `Method not found: "a/${'x'.repeat(75)}…".` });
    });

    it('still answers a modern initialize (with _meta) 404 + -32601: removed in 2026-07-28', async () => {
      const body = rpc('initialize', { ...initialize().params, _meta: meta() });
      const res = await legacyPost(app().server, body, mirroredHeaders(body));
      expect(res.status).toBe(404);
      expect(res.messages[0]!.error.code).toBe(-32601);
    });

    it('sends a legacy request log messages at every level (a stateless server cannot remember logging/setLevel)', async () => {
      const call = await legacyToolCall(app().server, 'logs', {}, () => 'no-answer');
      expect(call.messages.filter((m) => m.method === 'notifications/message').map((m) => m.params.level)).toEqual(['debug', 'info', 'warning', 'error']);
    });

    it('sends a legacy request only the levels from legacyLogLevel up, and the tool sees which were sent', async () => {
      const quiet = await createTestApp({ providers: TOOLS, options: { legacyLogLevel: 'warning' } });
      try {
        const call = await legacyToolCall(quiet.server, 'logs', {}, () => 'no-answer');
        expect(call.messages.filter((m) => m.method === 'notifications/message').map((m) => m.params.level)).toEqual(['warning', 'error']);
        expect(JSON.parse(call.messages.at(-1)!.result.content[0].text)).toEqual({ sent: [false, false, true, true] });
      } finally {
        await quiet.close();
      }
    });
  });

  describe('input requests on the legacy era: a server-to-client request on the call stream, answered by a POST', () => {
    it('asks, takes the answer (202), and resumes the tool, which runs once', async () => {
      sideEffects.length = 0;
      const call = await legacyToolCall(app().server, 'confirm_delete', { file: 'a.txt' }, () => accept({ confirm: true }));
      const asked = call.messages.filter((m) => m.method === 'elicitation/create');
      expect(asked).toEqual([
        {
          jsonrpc: '2.0',
          id: expect.stringMatching(/^mcp-input-[0-9a-f-]{36}$/),
          method: 'elicitation/create',
          params: { message: 'Delete a.txt?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } },
        },
      ]);
      expect(call.answerStatuses).toEqual([202]);
      expect(call.messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 'call-confirm_delete', result: { content: [{ type: 'text', text: 'Deleted a.txt.' }] } });
      expect(sideEffects).toEqual(['deleted a.txt']);
    });

    it.each([
      ['2025-03-26 (as a request without the header reads)', null, 'form', 'elicitation', '2025-06-18', {}],
      ['2025-03-26', '2025-03-26', 'form', 'elicitation', '2025-06-18', {}],
      ['2024-11-05', '2024-11-05', 'form', 'elicitation', '2025-06-18', {}],
      ['2025-06-18', '2025-06-18', 'url', 'URL-mode elicitation', '2025-11-25', { url: {} }],
    ] as const)('never sends a %s client an elicitation its revision lacks: the call ends -32021 at once', async (_what, version, kind, needs, since, required) => {
      const call = await legacyToolCall(app().server, 'ask', { kind }, () => 'no-answer', { headers: legacyHeaders(version) });
      expect(call.messages.filter((m) => m.method === 'elicitation/create')).toEqual([]);
      expect(call.messages.at(-1)!.error).toEqual({
        code: -32021,
        message: `Missing required client capability: this request needs ${needs}, which protocol version ${version ?? '2025-03-26'} does not have (it came with ${since}); the client may connect with a later revision.`,
        data: { requiredCapabilities: { elicitation: required } },
      });
    });

    it('sends a 2025-06-18 client a form elicitation, which its revision has', async () => {
      const call = await legacyToolCall(app().server, 'ask', { kind: 'form' }, () => accept({ ok: true }), { headers: legacyHeaders('2025-06-18') });
      expect(call.messages.filter((m) => m.method === 'elicitation/create')).toHaveLength(1);
      expect(call.answerStatuses).toEqual([202]);
    });

    it('takes a fraction for a number field of a form (schema.ts types form values string | number | boolean | string[])', async () => {
      const call = await legacyToolCall(app().server, 'ask', { kind: 'ratio' }, () => accept({ ratio: 0.25 }));
      expect(call.answerStatuses).toEqual([202]);
      expect(JSON.parse(call.messages.at(-1)!.result.content[0].text)).toEqual({ action: 'accept', content: { ratio: 0.25 } });
    });

    it('hands the tool an accepted URL-mode elicitation without the content its client sent', async () => {
      const call = await legacyToolCall(app().server, 'ask', { kind: 'url' }, () => accept({ token: 'from the client' }));
      expect(call.answerStatuses).toEqual([202]);
      expect(JSON.parse(call.messages.at(-1)!.result.content[0].text)).toEqual({ action: 'accept' });
    });

    it('sends several requests at once and takes their answers in any order', async () => {
      const replies: Record<string, unknown> = {
        'elicitation/create': { action: 'accept', content: { name: 'Ada' } },
        'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' },
        'roots/list': { roots: [{ uri: 'file:///work' }] },
      };
      const call = await legacyToolCall(app().server, 'gather', {}, (request) => ({ result: replies[request.method] }));
      expect(call.answerStatuses).toEqual([202, 202, 202]);
      expect(call.messages.at(-1)!.result.content[0].text).toBe('Hello Ada; roots: file:///work');
    });

    it('turns a client that answers "method not found" into -32021 for the tool, which may do without', async () => {
      const call = await legacyToolCall(app().server, 'degrade', {}, () => ({ error: { code: -32601, message: 'Method not found' } }));
      expect(call.messages.at(-1)!.result.content[0].text).toBe('without sampling');
      const uncaught = await legacyToolCall(app().server, 'ask', { kind: 'sampling' }, () => ({ error: { code: -32601, message: 'Method not found' } }));
      expect(uncaught.messages.at(-1)!.error).toEqual({
        code: -32021,
        message: 'Missing required client capability: this request needs sampling, and the client answered sampling/createMessage with "method not found".',
        data: { requiredCapabilities: { sampling: {} } },
      });
    });

    it.each([
      ['sampling with tools', 'sampling_tools', 'sampling', { sampling: { tools: {} } }, 'sampling/createMessage'],
      ['a URL-mode elicitation', 'url', 'URL-mode elicitation', { elicitation: { url: {} } }, 'elicitation/create'],
    ])('names all that %s needs when the client answers it "method not found"', async (_what, kind, needs, required, method) => {
      const notFound = () => ({ error: { code: -32601, message: 'Method not found' } });
      const call = await legacyToolCall(app().server, 'ask', { kind }, notFound, { headers: legacyHeaders('2025-11-25') });
      expect(call.messages.at(-1)!.error).toEqual({
        code: -32021,
        message: `Missing required client capability: this request needs ${needs}, and the client answered ${method} with "method not found".`,
        data: { requiredCapabilities: required },
      });
    });

    it('refuses an answer that does not match what was asked (-32602), and the tool never sees it', async () => {
      sideEffects.length = 0;
      const call = await legacyToolCall(app().server, 'confirm_delete', { file: 'b.txt' }, () => accept({ confirm: 'yes' }));
      expect(call.messages.at(-1)!.error).toMatchObject({ code: -32602, data: { reason: 'invalid_input_response' } });
      expect(sideEffects).toEqual([]);
    });

    it('refuses an answer carrying both result and error (400 + -32600, JSON-RPC 2.0 allows one): the request still waits, and a proper answer resumes the tool', async () => {
      const pending = app().app.get(PendingInputRequests);
      let answered: Promise<void> | undefined;
      const marks: unknown[] = [];
      const call = legacyToolCall(app().server, 'confirm_delete', { file: 'e.txt' }, (request) => {
        answered = (async () => {
          const events = await recordEvents(['mcp:wire:reject'], async () => {
            const both = await legacyPost(app().server, {
              jsonrpc: '2.0',
              id: request.id,
              result: { action: 'accept', content: { confirm: true } },
              error: { code: 1, message: 'no' },
            });
            expect(both.status).toBe(400);
            expect(both.messages[0]!.error.code).toBe(-32600);
          });
          marks.push(...events.map((e) => e.message.rejecter));
          expect(pending.size).toBe(1);
          expect((await legacyPost(app().server, { jsonrpc: '2.0', id: request.id, result: { action: 'decline' } })).status).toBe(202);
        })();
        return 'no-answer';
      });
      const done = await call;
      await answered;
      expect(marks).toEqual(['message-validation']);
      expect(done.messages.at(-1)!.result.content[0].text).toBe('Kept e.txt (decline).');
    });

    it('refuses an answer to a request no one asked (400 + -32600), naming why', async () => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 'mcp-input-forged', result: { action: 'accept' } });
      expect(res.status).toBe(400);
      expect(res.messages[0]!.error).toMatchObject({ code: -32600, message: expect.stringContaining('no input request with this id waits') });
      expect(res.messages[0]).not.toHaveProperty('id'); // an answer to an answer: "a JSON-RPC error response that has no id"
    });

    it('refuses a call whose Accept excludes SSE once its tool asks (-32600 naming the Accept), with nothing left waiting and the process unharmed', async () => {
      sideEffects.length = 0;
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => void unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'confirm_delete', arguments: { file: 'd.txt' } } };
        const res = await legacyPost(app().server, body, legacyHeaders('2025-11-25', { accept: 'application/json' }));
        expect(res.status).toBe(200); // a legacy client reads every method error from a 200
        expect(res.messages).toEqual([
          {
            jsonrpc: '2.0',
            id: 7,
            error: {
              code: -32600,
              message: 'This call sends the client elicitation/create on an SSE stream, which the Accept header excludes: accept text/event-stream.',
              data: { accept: 'application/json' },
            },
          },
        ]);
        await sleep(50);
        expect(unhandled).toEqual([]);
        expect(app().app.get(PendingInputRequests).size).toBe(0);
        expect(sideEffects).toEqual([]);
        const echo = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } };
        expect((await legacyPost(app().server, echo)).messages[0]!.result.content[0].text).toBe('still here');
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    });

    it('withdraws the requests of a call whose client went away: nothing is left waiting', async () => {
      const pending = app().app.get(PendingInputRequests);
      const abort = new AbortController();
      const call = legacyToolCall(app().server, 'confirm_delete', { file: 'c.txt' }, () => (abort.abort(), 'no-answer'), { signal: abort.signal }).catch(() => 'aborted');
      expect(await call).toBe('aborted');
      await until(() => pending.size === 0, 'the input request to be withdrawn');
      expect(pending.size).toBe(0);
    });
  });
});

/** What each input request or state change made after its legacy call was answered threw or rejected with. */
const late: string[] = [];

@McpTool({ name: 'late', description: 'Asks and sets its state after its call was answered.', inputSchema: { type: 'object', properties: {} } })
class LateTool {
  run(_args: unknown, ctx: McpContext) {
    setImmediate(() => {
      try {
        ctx.state = 1;
      } catch (error) {
        late.push((error as Error).message);
      }
      ctx.listRoots().catch((error: Error) => late.push(error.message));
    });
    return 'answered';
  }
}

describe('input requests on the legacy era: a tool at fault', () => {
  const app = useTestApp({ providers: [MisuseTool, LateTool] });

  it.each([
    ['one key twice in one execution', 'duplicate_key', 1, 'used twice in one execution'],
    ['a key outside the allowed characters', 'bad_key', 0, 'must be 1–64 characters'],
    ['a key that is no string', 'number_key', 0, 'must be 1–64 characters'],
  ])('is a fault of the tool that gives %s, as on the modern era', async (_case, how, sent, text) => {
    const call = await legacyToolCall(app().server, 'misuse', { how }, () => ({ result: { action: 'accept', content: { ok: true } } }));
    expect(call.messages.filter((m) => m.method === 'elicitation/create')).toHaveLength(sent);
    expect(call.messages.at(-1)!.result.isError).toBe(true);
    expect(call.messages.at(-1)!.result.content[0].text).toContain(text);
  });

  it('rejects an input request and a state change made after the call was answered', async () => {
    const call = await legacyToolCall(app().server, 'late', {}, () => 'no-answer');
    expect(call.messages.at(-1)!.result.content[0].text).toBe('answered');
    await until(() => late.length === 2, 'the late input request to settle');
    expect(late).toEqual([
      expect.stringContaining('after the request it belongs to was answered'),
      expect.stringContaining('asked after the request it belongs to was answered'),
    ]);
  });
});

describe('bounds on the legacy era’s pending input requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [ConfirmDeleteTool],
      options: {
        legacyInputRequests: { maxPending: 1, timeoutMs: 300 },
        auth: { authenticate: (req) => McpAuthDecision.allow({ subject: String(req.headers['x-user'] ?? 'anonymous') }) },
      },
    });
  });
  afterAll(() => t.close());

  it("fails a request the client never answers after timeoutMs with -32603 input_request_timeout, the call's answer when its tool does not catch it (no tool fault)", async () => {
    const events = await recordEvents(['mcp:tool:error'], async () => {
      const call = await legacyToolCall(t.server, 'confirm_delete', { file: 'a.txt' }, () => 'no-answer');
      const asked = call.messages.find((message) => message.method === 'elicitation/create')!;
      expect(call.messages.at(-1)).toEqual({
        jsonrpc: '2.0',
        id: expect.anything(),
        error: {
          code: -32603,
          message: `Internal error: the client did not answer input request ${asked.id} within 300 ms (legacyInputRequests.timeoutMs).`,
          data: { reason: 'input_request_timeout' },
        },
      });
    });
    expect(events).toEqual([]);
    expect(t.app.get(PendingInputRequests).size).toBe(0);
  });

  it('refuses one more request than maxPending with a clear error, and serves again once one settles', async () => {
    let first: ((value: unknown) => void) | undefined;
    const waiting = legacyToolCall(t.server, 'confirm_delete', { file: 'a.txt' }, () => (first?.(undefined), 'no-answer'));
    await new Promise((resolve) => (first = resolve));
    const refused = await legacyToolCall(t.server, 'confirm_delete', { file: 'b.txt' }, () => 'no-answer');
    expect(refused.status).toBe(200); // a legacy client reads a JSON-RPC error only from a 2xx answer
    expect(refused.messages[0]!.error).toMatchObject({ code: -32603, data: { reason: 'too_many_pending_input_requests' } });
    await waiting;
    const served = await legacyToolCall(t.server, 'confirm_delete', { file: 'c.txt' }, () => accept({ confirm: false }));
    expect(served.messages.at(-1)!.result.content[0].text).toBe('Kept c.txt (accept).');
  });

  it('counts a waiting call of many small values for what they hold parsed (80 bytes a value), not for their few bytes of text', async () => {
    const bounded = await createTestApp({ providers: [ConfirmDeleteTool], options: { legacyInputRequests: { maxPendingBytes: 1_000_000 } } });
    try {
      // 20,000 values in about 40 KB of text: 1.6 MB once parsed, past the bound on their own.
      const dense = await legacyToolCall(bounded.server, 'confirm_delete', { file: 'a.txt' }, () => 'no-answer', { meta: { pad: new Array(20_000).fill(0) } });
      expect(dense.messages[0]!.error).toMatchObject({ code: -32603, data: { reason: 'too_many_pending_input_bytes' } });
      // 200 KB in one string: a few values, counted by its bytes, within the bound.
      const long = await legacyToolCall(bounded.server, 'confirm_delete', { file: 'b.txt' }, () => accept({ confirm: false }), { meta: { pad: 'x'.repeat(200_000) } });
      expect(long.messages.at(-1)!.result.content[0].text).toBe('Kept b.txt (accept).');
    } finally {
      await bounded.close();
    }
  });

  it('refuses a call past maxPendingBytes (waiting calls hold their requests), and takes one again once the bytes are freed', async () => {
    const bounded = await createTestApp({ providers: [ConfirmDeleteTool], options: { legacyInputRequests: { maxPendingBytes: 5000 } } });
    try {
      const pending = bounded.app.get(PendingInputRequests);
      let asked: ((value: unknown) => void) | undefined;
      let release: (() => void) | undefined;
      const big = { file: 'x'.repeat(2000) };
      const waiting = legacyToolCall(bounded.server, 'confirm_delete', big, (request) => {
        asked?.(undefined);
        release = () => void legacyPost(bounded.server, { jsonrpc: '2.0', id: request.id, ...accept({ confirm: false }) });
        return 'no-answer';
      });
      await new Promise((resolve) => (asked = resolve));
      const refused = await legacyToolCall(bounded.server, 'confirm_delete', big, () => 'no-answer');
      expect(refused.status).toBe(200);
      expect(refused.messages[0]!.error).toMatchObject({ code: -32603, data: { reason: 'too_many_pending_input_bytes' } });
      expect(refused.messages[0]!.error.message).toMatch(
        /^Internal error: the calls waiting for their clients' answers on this server already hold \d+ of the 5000 bytes they may; retry later\.$/,
      );
      expect(pending.size).toBe(1);
      release!();
      expect((await waiting).messages.at(-1)!.result.content[0].text).toMatch(/^Kept x+ \(accept\)\.$/);
      const served = await legacyToolCall(bounded.server, 'confirm_delete', big, () => accept({ confirm: false }));
      expect(served.messages.at(-1)!.result.content[0].text).toMatch(/^Kept x+ \(accept\)\.$/);
    } finally {
      await bounded.close();
    }
  });

  it('counts a call asking several things at once for its request once, not once per input request', async () => {
    // One call of about 3,000 bytes as counted (2,100 of body, its header lines) asks three things at once: it holds
    // its request once, within 5,000 bytes.
    const bounded = await createTestApp({ providers: [GatherTool], options: { legacyInputRequests: { maxPendingBytes: 5000 } } });
    const answers: Record<string, Reply> = {
      'elicitation/create': accept({ name: 'Ada' }),
      'sampling/createMessage': { result: { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' } },
      'roots/list': { result: { roots: [] } },
    };
    try {
      const pad = { pad: 'x'.repeat(2000) };
      for (let call = 0; call < 2; call++) {
        const gathered = await legacyToolCall(bounded.server, 'gather', {}, (request) => answers[request.method as string]!, { meta: pad });
        expect(gathered.answerStatuses).toEqual([202, 202, 202]);
        expect(gathered.messages.at(-1)!.result.content[0].text).toBe('Hello Ada; roots: ');
      }
      expect(bounded.app.get(PendingInputRequests).size).toBe(0);
    } finally {
      await bounded.close();
    }
  });

  it("takes an answer only from the caller that was asked: another subject's answer is refused and changes nothing", async () => {
    const call = await legacyToolCall(
      t.server,
      'confirm_delete',
      { file: 'd.txt' },
      (request) => {
        void legacyPost(
          t.server,
          { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { confirm: true } } },
          legacyHeaders('2025-11-25', { 'x-user': 'mallory' }),
        ).then((res) => expect(res.status).toBe(400));
        return { result: { action: 'decline' } };
      },
      { headers: legacyHeaders('2025-11-25', { 'x-user': 'alice' }) },
    );
    expect(call.answerStatuses).toEqual([202]);
    expect(call.messages.at(-1)!.result.content[0].text).toBe('Kept d.txt (decline).');
  });
});

/** `headers` without their MCP-Protocol-Version. */
const withoutVersionHeader = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'mcp-protocol-version'));

describe('the eras option', () => {
  const legacyRequest = { body: initialize(), headers: legacyHeaders(null) };
  const modernRequest = { body: rpc('server/discover'), headers: mirroredHeaders(rpc('server/discover')) };
  const CELLS = {
    both: { legacy: 200, modern: 200 },
    modern: { legacy: 400, modern: 200 },
    legacy: { legacy: 200, modern: 400 },
  } as const;

  it.each(Object.entries(CELLS))('%s: a legacy initialize and a modern request are answered as the option says', async (eras, expected) => {
    const t = await createTestApp({ options: { eras: eras as keyof typeof CELLS } });
    try {
      const legacy = await legacyPost(t.server, legacyRequest.body, legacyRequest.headers);
      const modern = await legacyPost(t.server, modernRequest.body, modernRequest.headers);
      expect({ legacy: legacy.status, modern: modern.status }).toEqual(expected);
      if (eras === 'modern') expect(legacy.messages[0]!.error).toMatchObject({ code: -32602, data: { supported: ['2026-07-28'] } });
      if (eras === 'legacy') expect(modern.messages[0]!.error).toMatchObject({ code: -32022, data: { supported: [...LEGACY_PROTOCOL_VERSIONS] } });
    } finally {
      await t.close();
    }
  });

  it.each<[string, Record<string, unknown>, string, unknown]>([
    ['whose version header names 2026-07-28', {}, '2026-07-28', '2026-07-28'],
    ['modern by its _meta, though its version header names a legacy revision', { _meta: meta() }, '2025-11-25', '2025-11-25'],
    ['whose version header is too long to quote whole', {}, 'v'.repeat(5000), expect.stringMatching(/^v{250,256}…$/)],
  ])('legacy: a notification %s is refused, naming the legacy versions', async (_what, extra, version, requested) => {
    const t = await createTestApp({ providers: [EchoTool], options: { eras: 'legacy' } });
    try {
      const notification = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, ...extra } };
      const answer = await legacyPost(t.server, notification, { ...legacyHeaders(null), 'mcp-protocol-version': version });
      expect(answer.status).toBe(400);
      expect(answer.messages[0]!.error).toMatchObject({ code: -32022, data: { supported: [...LEGACY_PROTOCOL_VERSIONS], requested } });
    } finally {
      await t.close();
    }
  });

  it('legacy: a tasks-extension method sent as a legacy request gets the hint where the mount serves it, not where it does not', async () => {
    const tasks = await createTestApp({ providers: [SleeperTool] });
    const plain = await createTestApp({ providers: [EchoTool] });
    try {
      const sent = { jsonrpc: '2.0', id: 1, method: 'tasks/update', params: { taskId: 't' } };
      const hinted = await legacyPost(tasks.server, sent);
      expect(hinted.messages[0]!.error).toEqual({
        code: -32601,
        message: expect.stringMatching(/^Method not found: "tasks\/update" is a method of protocol version 2026-07-28, /),
      });
      const bare = await legacyPost(plain.server, sent);
      expect(bare.messages[0]!.error).toEqual({ code: -32601, message: 'Method not found: "tasks/update".' });
    } finally {
      await tasks.close();
      await plain.close();
    }
  });

  it('legacy: a 2026-07-28 method sent as a legacy request is refused without the hint to send it as 2026-07-28, which the mount does not serve', async () => {
    const t = await createTestApp({ providers: [EchoTool], options: { eras: 'legacy' } });
    try {
      const res = await legacyPost(t.server, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} });
      expect(res.messages[0]!.error).toEqual({ code: -32601, message: 'Method not found: "server/discover".' });
    } finally {
      await t.close();
    }
  });

  it('legacy: a modern request missing its protocol fields, or naming a legacy version in them, is refused the same way, naming the legacy versions, not asked for them', async () => {
    const t = await createTestApp({ providers: [EchoTool], options: { eras: 'legacy' } });
    try {
      const noMeta = rpc('tools/list', { _meta: undefined });
      const partial = rpc('tools/list', { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } });
      // A legacy version named in _meta (the protocol fields of a modern request): served to initialize-based clients only.
      const legacyMeta = rpc('tools/list', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }) });
      const cases = [
        { body: JSON.parse(JSON.stringify(noMeta)), headers: mirroredHeaders(noMeta), requested: '2026-07-28' },
        { body: partial, headers: withoutVersionHeader(mirroredHeaders(partial)), requested: undefined },
        { body: initialize(), headers: { ...legacyHeaders(null), 'mcp-protocol-version': '2026-07-28' }, requested: '2026-07-28' },
        { body: rpc('tools/list'), headers: mirroredHeaders(rpc('tools/list')), requested: '2026-07-28' },
        { body: legacyMeta, headers: mirroredHeaders(legacyMeta), requested: '2025-11-25' },
      ];
      for (const { body, headers, requested } of cases) {
        const marks = await recordEvents(['mcp:wire:reject'], () => legacyPost(t.server, body, headers));
        expect(marks[0]!.message).toMatchObject({ rejecter: 'version-check', reason: 'unsupported_version', status: 400, code: -32022 });
        const answer = await legacyPost(t.server, body, headers);
        expect(answer.status).toBe(400);
        expect(answer.messages[0]!.error).toEqual({
          code: -32022,
          message: `Unsupported protocol version ${requested === undefined ? 'of a 2026-07-28 request' : requested === '2025-11-25' ? `"${requested}" for a message carrying 2026-07-28 protocol fields in _meta (a client of that revision opens with initialize and sends none)` : `"${requested}"`}; this server supports ${LEGACY_PROTOCOL_VERSIONS.join(', ')}.`,
          data: { supported: [...LEGACY_PROTOCOL_VERSIONS], ...(requested !== undefined && { requested }) },
        });
      }
    } finally {
      await t.close();
    }
  });
});

describe('a mount serving nothing, on the legacy era', () => {
  let warn: ReturnType<typeof jest.spyOn>;
  beforeAll(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined); // the empty-mount warning
  });
  afterAll(() => warn.mockRestore());
  const app = useTestApp({ providers: [] });

  it('answers logging/setLevel -32601, as it advertises no logging (nothing it serves could log)', async () => {
    const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'info' } });
    expect([res.status, res.messages[0]!.error]).toEqual([
      200,
      { code: -32601, message: 'Method not found: "logging/setLevel" is not served by this server (it advertises no "logging" capability).' },
    ]);
  });
});

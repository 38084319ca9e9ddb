import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { ServerCapabilities } from '../../lib/methods/server-capabilities.js';
import { NAMES_LISTED as TOOL_NAMES_LISTED } from '../../lib/util/named-registry.js';
import { DETAILED_CHECK_MAX_ERRORS } from '../../lib/validation/linear-errors.js';
import { ajvErrorsCollected, ajvErrorsCopied } from '../support/error-copies.js';
import { EchoTool } from '../support/fixture-tools.js';
import { generatedToolName, generatedTools } from '../support/generated-tools.js';
import { legacyHeaders } from '../support/legacy-client.js';
import { meta, post, recordEvents, rejectionOf, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The refusal of a message whose integer id this server cannot echo (or match) exactly. */
const UNSAFE_ID_REFUSAL = {
  jsonrpc: '2.0',
  error: {
    code: -32600,
    message: 'Invalid request: the id is an integer beyond ±(2^53−1), which this server cannot echo exactly; send a string or a smaller integer.',
    data: { errorCount: 1, errors: [{ location: '/id', problems: ['must be a string or an integer within ±(2^53−1)'] }] },
  },
};

describe('message validation and classification', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool] });
  });
  afterAll(() => t.close());

  it('answers a non-conforming message with a distilled error: one entry per failing location, in our words', async () => {
    const res = await post(t.server, { jsonrpc: '1.0', id: 9, method: 42, params: { _meta: meta() } }, { 'mcp-method': 'x' });
    expect(res.status).toBe(400);
    expect(res.body.id).toBe(9);
    expect(res.body.error.code).toBe(-32600);
    expect(res.body.error.data.errors).toEqual(
      expect.arrayContaining([
        { location: '/jsonrpc', problems: ['must be "2.0"'] },
        { location: '/method', problems: ['must be a string'] },
      ]),
    );
    expect(res.body.error.data.errorCount).toBe(res.body.error.data.errors.length);
    // The message names the first problem too, for clients that show only the message.
    const [first] = res.body.error.data.errors;
    expect(res.body.error.message).toBe(
      `Invalid request: the message is not a valid JSON-RPC 2.0 request or notification; at ${first.location}, ${first.problems[0]} (and ${res.body.error.data.errorCount - 1} more location${res.body.error.data.errorCount > 2 ? 's' : ''}; see data.errors).`,
    );
    expect(JSON.stringify(res.body)).not.toMatch(/must be equal to constant|instancePath|schemaPath/);
  });

  it('lists every problem at a location, its first one ending the message', async () => {
    const res = await post(t.server, { jsonrpc: 5, id: 9, method: 'tools/list', params: { _meta: meta() } });
    expect(res.body.error.data.errors).toEqual([{ location: '/jsonrpc', problems: ['must be a string', 'must be "2.0"'] }]);
    expect(res.body.error.message).toBe('Invalid request: the message is not a valid JSON-RPC 2.0 request or notification; at /jsonrpc, must be a string.');
  });

  it('refuses an id of null without echoing it', async () => {
    const res = await post(t.server, { jsonrpc: '2.0', id: null, method: 'server/discover', params: { _meta: meta() } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32600);
    expect(res.body).not.toHaveProperty('id');
  });

  it('refuses a message nested deeper than 128 levels with -32600 at the location, before anything recursive reads it', async () => {
    const events = await recordEvents(['mcp:method:error'], async () => {
      const deep = JSON.stringify(rpc('tools/list', { _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': { experimental: { x: 0 } } }) }, 'deep')).replace(
        '"x":0',
        `"x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
      );
      const res = await post(t.server, deep, { 'mcp-method': 'tools/list', 'mcp-protocol-version': '2026-07-28' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ id: 'deep', error: { code: -32600, message: 'Invalid request: the message nests objects and arrays deeper than 128 levels.' } });
      const experimental = '/params/_meta/io.modelcontextprotocol~1clientCapabilities/experimental/x';
      expect(res.body.error.data).toEqual({
        errorCount: 1,
        errors: [{ location: `${experimental}${'/a'.repeat(129 - 6)}`, problems: ['is nested deeper than 128 levels'] }],
      });
    });
    expect(events).toEqual([]);
  });

  it('serves a message nested exactly 128 levels deep', async () => {
    const nest = (levels: number): unknown => (levels === 0 ? 1 : [nest(levels - 1)]);
    const res = await post(t.server, rpc('tools/list', { _meta: meta({ 'com.example/deep': nest(128 - 3) }) }));
    expect(res.status).toBe(200);
    const deeper = await post(t.server, rpc('tools/list', { _meta: meta({ 'com.example/deep': nest(128 - 2) }) }));
    expect(deeper.status).toBe(400);
    expect(deeper.body.error.data.errors[0].location).toBe(`/params/_meta/com.example~1deep${'/0'.repeat(129 - 4)}`);
  });

  it.each(['9007199254740993', '-9007199254740993', '1e300'])('refuses the integer id %s, which it cannot echo exactly, with -32600 and no id', async (id) => {
    const res = await post(t.server, `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":${JSON.stringify(meta())}}}`, {
      'mcp-method': 'tools/list',
      'mcp-protocol-version': '2026-07-28',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(UNSAFE_ID_REFUSAL);
  });

  it.each(['9007199254740993', '1e300'])(
    "refuses a legacy client's answer (a JSON-RPC response) with the integer id %s, which no request of this server's has, with -32600 and no id",
    async (id) => {
      const res = await post(t.server, `{"jsonrpc":"2.0","id":${id},"result":{"action":"decline"}}`, legacyHeaders());
      expect(res.status).toBe(400);
      expect(res.body).toEqual(UNSAFE_ID_REFUSAL);
    },
  );

  it('refuses a message with neither method nor result (unknown kind) with -32600', async () => {
    const res = await post(t.server, { jsonrpc: '2.0', id: 3 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ id: 3, error: { code: -32600 } });
    expect(res.body.error.data.errors).toEqual([{ location: '', problems: ['missing required property "method"'] }]);
    expect(res.body.error.message).toBe(
      'Invalid request: the message is not a valid JSON-RPC 2.0 request or notification; at the message root, missing required property "method".',
    );
  });

  it.each([
    ['a request with the id null', { jsonrpc: '2.0', id: null, method: 'ping' }, '/id', 'must be a string or an integer'],
    ['a request of JSON-RPC 1.0', { jsonrpc: '1.0', id: 1, method: 'ping' }, '/jsonrpc', 'must be "2.0"'],
    ['a request whose params are no object', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: 'x' }, '/params', 'must be an object'],
    ['an answer whose result is no object', { jsonrpc: '2.0', id: 'a', result: 'yes' }, '/result', 'must be an object'],
    ['an answer whose error code is no integer', { jsonrpc: '2.0', id: 'a', error: { code: 1.5, message: 'no' } }, '/error/code', 'must be an integer'],
  ])('refuses %s from a legacy client at message validation (400 + -32600, located)', async (_what, body, location, problem) => {
    const mark = await rejectionOf(async () => {
      const res = await post(t.server, body, legacyHeaders());
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32600);
      expect(res.body.error.data.errors).toEqual([{ location, problems: [problem] }]);
    });
    expect(mark).toEqual({ rejecter: 'message-validation', reason: 'invalid_message' });
  });

  it.each([
    ['a request on the modern era', rpc('tools/list'), undefined, 'result'],
    ['a request on the legacy era', { jsonrpc: '2.0', id: 'p', method: 'ping' }, legacyHeaders(), 'result'],
    ['a request on the legacy era', { jsonrpc: '2.0', id: 'p', method: 'ping' }, legacyHeaders(), 'error'],
    ['a notification on the legacy era', { jsonrpc: '2.0', method: 'notifications/initialized' }, legacyHeaders(), 'error'],
  ])('refuses %s that also carries an answer key (%s): it reads as two kinds, so 400 + -32600 at message validation, never served', async (_what, message, headers, key) => {
    const body: Record<string, unknown> = { ...message, [key]: key === 'result' ? {} : { code: 1, message: 'x' } };
    const mark = await rejectionOf(async () => {
      const res = await post(t.server, body, headers);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: -32600,
        message: `Invalid request: the message has both "method" and "${key}", so it reads as a request and as an answer; send a request (method, params) or an answer (result or error), not both.`,
        data: { errorCount: 1, errors: [{ location: `/${key}`, problems: ['must not sit beside "method"'] }] },
      });
    });
    expect(mark).toEqual({ rejecter: 'message-validation', reason: 'invalid_message' });
  });

  it('refuses a client-sent response (result or error) with 400 + -32600, in an error without an id (it answered no request)', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: 4, result: { resultType: 'complete' } },
      { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'no' } },
    ]) {
      const mark = await rejectionOf(async () => {
        const res = await post(t.server, body);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: { code: -32600 } });
        expect(res.body).not.toHaveProperty('id');
      });
      expect(mark).toEqual({ rejecter: 'message-validation', reason: 'client_response' });
    }
  });

  it.each([
    ['no protocol headers', { 'mcp-method': null, 'mcp-protocol-version': null }],
    ['the 2026-07-28 headers', { 'mcp-method': 'notifications/initialized', 'mcp-protocol-version': '2026-07-28' }],
  ])('accepts a notification with 202 and an empty body, without header or _meta checks (%s)', async (_headers, headers) => {
    const res = await post(t.server, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    expect(res.headers['content-length']).toBe('0');
    expect(res.headers['transfer-encoding']).toBeUndefined();
  });

  it('refuses a malformed notification (params not an object) with 400', async () => {
    const res = await post(t.server, { jsonrpc: '2.0', method: 'notifications/cancelled', params: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32600);
  });
});

describe('protocol fields, header binding and version: the order the transport spec fixes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool] });
  });
  afterAll(() => t.close());

  it('answers a request without params with 400 + -32602 naming the fields and the served versions', async () => {
    const res = await post(t.server, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ id: 1, error: { code: -32602, data: { supported: ['2026-07-28'] } } });
    expect(res.body.error.message).toMatch(/io\.modelcontextprotocol\/protocolVersion/);
    expect(res.body.error.message).toMatch(/2026-07-28/);
  });

  it.each([
    ['protocolVersion', { 'io.modelcontextprotocol/protocolVersion': undefined }, ['io.modelcontextprotocol/protocolVersion']],
    ['clientCapabilities', { 'io.modelcontextprotocol/clientCapabilities': undefined }, ['io.modelcontextprotocol/clientCapabilities']],
  ])('answers _meta without %s with -32602 even when the version header is right', async (_field, override, missing) => {
    const body = JSON.parse(JSON.stringify(rpc('tools/list', { _meta: meta(override) })));
    const res = await post(t.server, body, { 'mcp-protocol-version': '2026-07-28' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.data.missing).toEqual(missing);
  });

  it('answers a null _meta as missing protocol fields, naming both', async () => {
    const marks = await recordEvents(['mcp:wire:reject'], () => post(t.server, rpc('tools/list', { _meta: null }), { 'mcp-protocol-version': '2026-07-28' }));
    expect(marks.map((m) => [m.message.reason, m.message.code])).toEqual([['missing_protocol_fields', -32602]]);
  });

  it('answers an empty _meta with -32602 naming both missing fields', async () => {
    const res = await post(t.server, rpc('tools/list', { _meta: {} }), { 'mcp-protocol-version': '2026-07-28' });
    expect([res.status, res.body.error.code]).toEqual([400, -32602]);
    expect(res.body.error.data.missing).toEqual(['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities']);
  });

  it('answers a _meta that is an array as malformed protocol fields, not as missing ones', async () => {
    const marks = await recordEvents(['mcp:wire:reject'], () => post(t.server, rpc('tools/list', { _meta: [] }), { 'mcp-protocol-version': '2026-07-28' }));
    expect(marks.map((m) => [m.message.reason, m.message.code])).toEqual([['malformed_protocol_fields', -32602]]);
  });

  it.each([
    ['a protocolVersion that is not a string', { 'io.modelcontextprotocol/protocolVersion': 7 }, '/params/_meta/io.modelcontextprotocol~1protocolVersion'],
    ['clientCapabilities that are not an object', { 'io.modelcontextprotocol/clientCapabilities': 'all' }, '/params/_meta/io.modelcontextprotocol~1clientCapabilities'],
    ['an unknown log level', { 'io.modelcontextprotocol/logLevel': 'loud' }, '/params/_meta/io.modelcontextprotocol~1logLevel'],
    ['a clientInfo without name', { 'io.modelcontextprotocol/clientInfo': { version: '1' } }, '/params/_meta/io.modelcontextprotocol~1clientInfo'],
  ])('answers %s with -32602 and a distilled error at that location', async (_what, override, location) => {
    const res = await post(t.server, rpc('tools/list', { _meta: meta(override) }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.data.errors.map((e: { location: string }) => e.location)).toContain(location);
    expect(res.body.error.message).toContain(`Invalid params: the protocol fields in params._meta are malformed; at ${res.body.error.data.errors[0].location}, `);
    expect(res.body.error.data.supported).toEqual(['2026-07-28']);
  });

  it('answers _meta that is not an object with -32602', async () => {
    const res = await post(t.server, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32602);
  });

  it('checks header binding before the version: header 2026-07-28 with _meta v999.0.0 is -32020', async () => {
    const res = await post(t.server, rpc('server/discover', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) }), {
      'mcp-protocol-version': '2026-07-28',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32020);
  });

  it('answers an unsupported version (header and _meta agree) with -32022 and data {supported, requested}', async () => {
    const res = await post(t.server, rpc('server/discover', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) }, 'v'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 'v',
      error: {
        code: -32022,
        message: 'Unsupported protocol version "v999.0.0"; this server supports 2026-07-28.',
        data: { supported: ['2026-07-28'], requested: 'v999.0.0' },
      },
    });
  });

  it.each(['2025-11-25', '2024-11-05'])('answers a legacy version %s named in _meta with -32022, saying such a client opens with initialize', async (version) => {
    const res = await post(t.server, rpc('tools/list', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': version }) }, 'l'));
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: -32022,
      message: `Unsupported protocol version "${version}" for a message carrying 2026-07-28 protocol fields in _meta (a client of that revision opens with initialize and sends none); this server supports 2026-07-28.`,
      data: { supported: ['2026-07-28'], requested: version },
    });
  });

  it('bounds a long unsupported version where the refusal repeats it, in its message and in data.requested', async () => {
    const version = 'v'.repeat(5000);
    const res = await post(t.server, rpc('server/discover', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': version }) }, 'v'));
    expect([res.status, res.body.error.code]).toEqual([400, -32022]);
    expect(res.body.error.message.length).toBeLessThan(150);
    expect(res.body.error.data.requested.length).toBeLessThan(300);
    expect(res.body.error.data.requested.startsWith('v'.repeat(200))).toBe(true);
  });

  it('answers a legacy initialize (no _meta, no modern headers) on a modern-only mount with 400 naming the supported versions', async () => {
    const modernOnly = await createTestApp({ options: { eras: 'modern' } });
    try {
      const res = await post(
        modernOnly.server,
        { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } } },
        { 'mcp-method': null, 'mcp-protocol-version': null },
      );
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32602);
      expect(res.body.error.message).toContain('this server serves protocol version 2026-07-28');
      expect(res.body.error.data.supported).toEqual(['2026-07-28']);
    } finally {
      await modernOnly.close();
    }
  });
});

describe('method routing', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Past the default value cap (maxBodyValues), so the large-message checks behind it are reached too.
    t = await createTestApp({ providers: [EchoTool], options: { maxBodyValues: 10_000_000 } });
  });
  afterAll(() => t.close());

  it.each(['unknown/method', 'tools/unknown', 'TOOLS/LIST'])('answers the unknown method %s with 404 + -32601', async (method) => {
    const res = await post(t.server, rpc(method, {}, 'u'));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ id: 'u', error: { code: -32601 } });
  });

  it.each(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'])('answers the removed method %s with 404 + -32601', async (method) => {
    const res = await post(t.server, rpc(method, {}, 'r'));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ id: 'r', error: { code: -32601 } });
    expect(res.body.error.message).toMatch(/removed in protocol version 2026-07-28/);
  });

  it('answers a method whose capability is not advertised (prompts/list) with 404 + -32601', async () => {
    const res = await post(t.server, rpc('prompts/list'));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe(-32601);
  });

  it('refuses "arguments": null (not an object) with 400 + -32602, and reads absent arguments as {}', async () => {
    const refused = await post(t.server, rpc('tools/call', { name: 'echo', arguments: null }, 'n'));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ id: 'n', error: { code: -32602 } });
    expect(refused.body.error.data.errors[0].location).toBe('/params/arguments');
    const absent = await post(t.server, rpc('tools/call', { name: 'echo' }, 'a'));
    expect(absent.status).toBe(200);
  });

  it('answers params that break the method schema with -32602 and a distilled error', async () => {
    const res = await post(t.server, rpc('tools/call', { arguments: {} }, 'p'), { 'mcp-name': null });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ id: 'p', error: { code: -32602 } });
    expect(res.body.error.data.errors).toEqual([{ location: '/params', problems: ['missing required property "name"'] }]);
    expect(res.body.error.message).toBe('Invalid params for tools/call; at /params, missing required property "name".');
  });

  it('answers an unknown tool with -32602 naming it and the tools there are, at 200', async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'nope', arguments: {} }, 't'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 't',
      error: { code: -32602, message: 'Unknown tool: "nope". Valid tools: echo, help.', data: { tool: 'nope', available: ['echo', 'help'], availableCount: 2 } },
    });
  });

  it(`lists at most ${TOOL_NAMES_LISTED} tool names in the unknown tool's message and in its data, which counts them all`, async () => {
    const tools = generatedTools(TOOL_NAMES_LISTED + 10);
    const many = await createTestApp({ providers: tools });
    try {
      const res = await post(many.server, rpc('tools/call', { name: 'nope', arguments: {} }));
      const names = ['help', ...tools.map((_, i) => generatedToolName(i))]; // in name order
      expect(res.body.error.message).toBe(`Unknown tool: "nope". Valid tools: ${names.slice(0, TOOL_NAMES_LISTED).join(', ')}, … (${names.length} in all).`);
      expect(res.body.error.data).toEqual({ tool: 'nope', available: names.slice(0, TOOL_NAMES_LISTED), availableCount: names.length });
    } finally {
      await many.close();
    }
  });

  it('quotes a name holding bidi controls escaped, so the refusal reads as what was sent (U+202E, U+2066)', async () => {
    const name = 'evil\u202etxt.exe\u2066';
    const res = await post(t.server, rpc('tools/call', { name, arguments: {} }, 'b'), { 'mcp-name': `=?base64?${Buffer.from(name).toString('base64')}?=` });
    expect(res.body.error.message).toBe('Unknown tool: "evil\\u202etxt.exe\\u2066". Valid tools: echo, help.');
    expect(JSON.stringify(res.body)).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('quotes a name holding a lone surrogate half escaped, so the refusal is well-formed text a client can re-encode', async () => {
    const name = 'x\ud800y';
    // The header carries the name's UTF-8, where the half became U+FFFD: it differs from the body, which is refused.
    const res = await post(t.server, rpc('tools/call', { name, arguments: {} }, 's'), { 'mcp-name': `=?base64?${Buffer.from(name).toString('base64')}?=` });
    expect([res.status, res.body.error.code]).toEqual([400, -32020]);
    expect(res.body.error.message).toContain('"x\\ud800y"');
    expect(res.body.error.message).not.toMatch(/[\ud800-\udfff]/);
  });

  it('answers every success with 200, a result carrying resultType and serverInfo, and the request id', async () => {
    for (const [method, params] of [
      ['server/discover', {}],
      ['tools/list', {}],
      ['tools/call', { name: 'echo', arguments: { text: 'x' } }],
    ] as const) {
      const res = await post(t.server, rpc(method, params, `id-${method}`));
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(`id-${method}`);
      expect(res.body.result.resultType).toBe('complete');
      expect(res.body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'test-server', version: '1.0.0' });
    }
  });

  it('puts caching hints on tools/list but not on tools/call', async () => {
    const list = await post(t.server, rpc('tools/list'));
    expect(list.body.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    const call = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'x' } }));
    expect(call.body.result).not.toHaveProperty('ttlMs');
  });

  it('distils the errors of many broken inputResponses in time linear in their number (no error copied per merge; quadratic distilling took over 10 s here)', async () => {
    const count = 150; // six errors each: under DETAILED_CHECK_MAX_ERRORS, so every problem is named
    const inputResponses = Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, {}]));
    let res: any;
    const copied = await ajvErrorsCopied(async () => (res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'x' }, inputResponses }))));
    expect(copied).toBe(0); // ajv's stock merge copied 243 million errors here for 9,000
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.data.errorCount).toBe(count);
    expect(res.body.error.data.errors).toEqual(
      // The first eight unions are looked up in the schema (UNION_LOOKUPS); the rest stand for their branches.
      Array.from({ length: 10 }, (_, i) => ({
        location: `/params/inputResponses/k${i}`,
        problems: [
          i < 8
            ? 'missing the required properties of one of its shapes: ["content", "model", "role"] or ["roots"] or ["action"]'
            : 'must match at least one of the allowed shapes',
        ],
      })),
    );
  });

  it('stops at the first problem of a message too large to list every problem of (a 4 MiB map of broken inputResponses)', async () => {
    const count = 300_000;
    const inputResponses = Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, {}]));
    const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'x' }, inputResponses }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32602, data: { errorCount: 1 } }); // naming all 300,000 took 9 s and half a gigabyte
    expect(res.body.error.data.errors).toEqual([{ location: '/params/inputResponses/k0', problems: ['must match at least one of the allowed shapes'] }]);
  });

  it('stops collecting errors at DETAILED_CHECK_MAX_ERRORS: a 30 KB answer failing every content shape at each of its 9,980 blocks is named by its first problem', async () => {
    const inputResponses = { greeting: { role: 'assistant', model: 'm', content: Array.from({ length: 9_980 }, () => ({})) } };
    let res: any;
    const collected = await ajvErrorsCollected(async () => (res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'x' }, inputResponses }))));
    // Each error is pushed once where it is found and once into each list it is merged into, a few levels up.
    expect(collected).toBeLessThan(5 * DETAILED_CHECK_MAX_ERRORS); // 159,690 were collected and described here
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32602, data: { errorCount: 1 } });
    expect(res.body.error.data.errors[0].location).toMatch(/^\/params\/inputResponses\/greeting/);
  });

  it('answers a cursor it never issued with -32602', async () => {
    const res = await post(t.server, rpc('tools/list', { cursor: 'abc' }));
    expect(res.body.error.code).toBe(-32602);
  });
});

describe('method containment', () => {
  let t: TestApp;
  let failing = true;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool],
      override: (builder) =>
        builder.overrideProvider(ServerCapabilities).useValue({
          current: () => {
            if (failing) throw new Error('secret database password in message');
            return {};
          },
        }),
    });
  });
  afterAll(() => t.close());

  it('answers a fault past a method with 500 + -32603, a bounded message, no stack, one event, and keeps serving', async () => {
    const events = await recordEvents(['mcp:method:error'], async () => {
      const res = await post(t.server, rpc('server/discover', {}, 'f'));
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 'f', error: { code: -32603, message: 'Internal error while handling server/discover.' } });
    });
    expect(events).toEqual([
      {
        channel: 'mcp:method:error',
        message: {
          mount: '/mcp',
          method: 'server/discover',
          id: 'f',
          era: 'modern',
          exception: 'Error',
          error: 'Error: secret database password in message',
          fault: expect.any(Error),
        },
      },
    ]);
    const next = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'still here' } }));
    expect(next.status).toBe(200);
    failing = false;
    const again = await post(t.server, rpc('server/discover'));
    expect(again.status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';

import { XMcpHeaderTool as RegionTool } from '../../conformance/src/fixture-tools.js';
import { LEGACY_PROTOCOL_VERSIONS, McpTool, type McpPlainTool } from '../../lib/index.js';
import { NODE_HEADER_LINES_READ } from '../../lib/util/header-lines.js';
import { addFormats } from '../../lib/validation/add-formats.js';
import { firstText } from '../support/client-result.js';
import { legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { meta, mirroredHeaders, post, recordEvents, rejectionOf, rpc } from '../support/mcp-client.js';
import { fillerLines, NODE_REFUSES_EXCESS_LINES, rawRequest, type HeaderLine, type RawResponse } from '../support/raw-http.js';
import { useSampleApp } from '../support/sample-app.js';
import { useTestApp } from '../support/suite-app.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { MirrorTool } from '../wire/wire-fixtures.js';

/** A tool whose annotated argument is named as an `Object.prototype` member. */
@McpTool({
  name: 'proto_named',
  description: 'Mirrors an argument named toString into a header.',
  inputSchema: { type: 'object', properties: { toString: { type: 'string', 'x-mcp-header': 'ToString' } } },
})
class ProtoNamedTool implements McpPlainTool {
  run(args: Record<string, unknown>): unknown {
    return { received: args };
  }
}

/** The header lines a conforming client sends for a body, with overrides (`null` drops one) and extra lines. */
function linesFor(body: Record<string, unknown>, overrides: Record<string, string | null> = {}, extra: HeaderLine[] = []): HeaderLine[] {
  const merged: Record<string, string | null> = { ...mirroredHeaders(body), ...overrides };
  const lines = Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== null);
  return [...lines, ...extra];
}

const call = (name: string, args?: Record<string, unknown>) => rpc('tools/call', args === undefined ? { name } : { name, arguments: args });

/** Expects a header-binding rejection: 400, -32020, the request id, one sentence naming the header. */
function expectMismatch(res: { status: number; body: any }, header: string): void {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe(-32020);
  expect(res.body.id).toBeDefined();
  expect(res.body.error.data).toEqual({ header });
  expect(res.body.error.message).toMatch(/^Header mismatch: [^\n]*\.$/);
  expect(res.body.error.message).toContain(header);
}

/** Expects a served tools/call: 200 with a complete result (the tool ran). */
function expectServed(res: { status: number; body: any }): void {
  expect(res.status).toBe(200);
  expect(res.body.error).toBeUndefined();
  expect(res.body.result.resultType).toBe('complete');
}

describe('header binding: mirrored headers must match the body', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [RegionTool, MirrorTool, ProtoNamedTool] });
  });
  afterAll(() => t.close());

  describe('MCP-Protocol-Version, Mcp-Method and Mcp-Name', () => {
    it('serves a request whose mirrored headers match its body', async () => {
      expectServed(await post(t.server, call('test_x_mcp_header', { region: 'us-west1' }), { 'mcp-param-region': 'us-west1' }));
    });

    it.each(['mcp-method', 'MCP-METHOD', 'mCp-MeThOd'])('accepts the header name %s on the wire: names compare without case', async (name) => {
      const body = rpc('tools/list');
      const res = await rawRequest(t.server, { headers: linesFor(body, { 'mcp-method': null }, [[name, 'tools/list']]), body: JSON.stringify(body) });
      expect(res.status).toBe(200);
    });

    it.each([
      ['Mcp-Method', { 'mcp-method': 'tools/call' }, 'header_mismatch'],
      ['Mcp-Method', { 'mcp-method': 'TOOLS/LIST' }, 'header_mismatch'],
      ['Mcp-Method', { 'mcp-method': null }, 'missing_header'],
      ['MCP-Protocol-Version', { 'mcp-protocol-version': '2025-06-18' }, 'header_mismatch'],
      ['MCP-Protocol-Version', { 'mcp-protocol-version': null }, 'missing_header'],
      // Only Mcp-Name and Mcp-Param-* values may come base64-wrapped; these two are compared as sent.
      ['Mcp-Method', { 'mcp-method': '=?base64?dG9vbHMvbGlzdA==?=' }, 'header_mismatch'],
      ['MCP-Protocol-Version', { 'mcp-protocol-version': '=?base64?MjAyNi0wNy0yOA==?=' }, 'header_mismatch'],
    ])('refuses a tools/list whose %s header is %j with 400 + -32020', async (header, headers, reason) => {
      let res: any;
      const mark = await rejectionOf(async () => (res = await post(t.server, rpc('tools/list'), headers)));
      expectMismatch(res, header);
      expect(mark).toEqual({ rejecter: 'header-binding-check', reason });
    });

    it.each([
      ['Mcp-Method', rpc('tools/list'), { 'mcp-method': null }, 'the method, "tools/list"'],
      ['MCP-Protocol-Version', rpc('tools/list'), { 'mcp-protocol-version': null }, 'params._meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28"'],
      ['Mcp-Name', rpc('resources/read', { uri: 'app://a' }), { 'mcp-name': null }, 'params.uri, "app://a"'],
      ['Mcp-Name', rpc('prompts/get', { name: 'review' }), { 'mcp-name': null }, 'params.name, "review"'],
    ])('says what a missing %s header carries, so a request written by hand can be mended', async (header, body, headers, carried) => {
      const res = await post(t.server, body, headers);
      expectMismatch(res, header);
      expect(res.body.error.message).toBe(`Header mismatch: the ${header} header is required and missing: it carries ${carried}.`);
    });

    it.each([
      ['tools/call', 'name'],
      ['prompts/get', 'name'],
      ['resources/read', 'uri'],
      ['tasks/get', 'taskId'],
      ['tasks/update', 'taskId'],
      ['tasks/cancel', 'taskId'],
    ])('refuses a %s whose Mcp-Name differs from its %s with 400 + -32020', async (method, field) => {
      let res: any;
      const mark = await rejectionOf(async () => (res = await post(t.server, rpc(method, { [field]: 'app://a' }), { 'mcp-name': 'app://b' })));
      expectMismatch(res, 'Mcp-Name');
      expect(mark).toEqual({ rejecter: 'header-binding-check', reason: 'header_mismatch' });
    });

    it("binds a tool's Mcp-Param-* headers on tools/call only: a prompts/get of the same name is not held to them", async () => {
      const mark = await rejectionOf(() => post(t.server, rpc('prompts/get', { name: 'test_x_mcp_header' }), { 'mcp-param-region': 'eu' }));
      expect(mark?.rejecter).not.toBe('header-binding-check');
    });

    it('answers a protocol-version header that differs from an unsupported _meta version with -32020, not -32022', async () => {
      const body = rpc('server/discover', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) });
      const res = await post(t.server, body, { 'mcp-protocol-version': '2026-07-28' });
      expectMismatch(res, 'MCP-Protocol-Version');
    });

    it('leaves an unsupported version that header and _meta agree on to the version check (-32022)', async () => {
      const body = rpc('server/discover', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) });
      let res: any;
      const mark = await rejectionOf(async () => (res = await post(t.server, body)));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32022);
      expect(mark?.rejecter).toBe('version-check');
    });

    it.each([
      ['a different name', { 'mcp-name': 'mirror' }, 'header_mismatch'],
      ['a prefix of the name', { 'mcp-name': 'test_x_mcp' }, 'header_mismatch'],
      ['missing', { 'mcp-name': null }, 'missing_header'],
      ['bad base64 padding', { 'mcp-name': '=?base64?dGVzdF94X21jcF9oZWFkZXI?=' }, 'malformed_header'],
    ])('refuses a tools/call whose Mcp-Name is %s', async (_label, headers, reason) => {
      let res: any;
      const mark = await rejectionOf(async () => (res = await post(t.server, call('test_x_mcp_header'), headers)));
      expectMismatch(res, 'Mcp-Name');
      expect(mark).toEqual({ rejecter: 'header-binding-check', reason });
    });

    it('accepts an Mcp-Name with surrounding whitespace (HTTP optional whitespace is stripped)', async () => {
      expectServed(await post(t.server, call('test_x_mcp_header'), { 'mcp-name': '  test_x_mcp_header  ' }));
    });

    it('decodes a base64-wrapped Mcp-Name before comparing it', async () => {
      const encoded = `=?base64?${Buffer.from('test_x_mcp_header').toString('base64')}?=`;
      expectServed(await post(t.server, call('test_x_mcp_header'), { 'mcp-name': encoded }));
    });

    it('ignores Mcp-Name on a method that binds none, even a malformed one', async () => {
      const res = await post(t.server, rpc('tools/list'), { 'mcp-name': '=?base64?!!!?=' });
      expect(res.status).toBe(200);
    });

    it.each([
      ['__proto__', '[object Object]'],
      ['toString', String(Object.prototype.toString)],
    ])('binds no Mcp-Name to the unknown method %s (no lookup through Object.prototype), leaving it to method routing', async (method, key) => {
      let res: any;
      const mark = await rejectionOf(async () => (res = await post(t.server, { jsonrpc: '2.0', id: 'p', method, params: { _meta: meta(), [key]: 'x' } })));
      expect(mark).toEqual({ rejecter: 'method-routing', reason: 'unknown_method' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ id: 'p', error: { code: -32601 } });
    });

    it('binds no Mcp-Name to a tools/call whose name is not a string, leaving that to params validation', async () => {
      let res: any;
      const mark = await rejectionOf(async () => (res = await post(t.server, rpc('tools/call', { name: 42 }), { 'mcp-name': 'x' })));
      expect(mark?.rejecter).toBe('method-routing');
      expect(res.body.error.code).toBe(-32602);
    });

    it('quotes a long mismatching value only bounded, in one sentence', async () => {
      const long = `x${'y'.repeat(5000)}`;
      const res = await post(t.server, call('test_x_mcp_header'), { 'mcp-name': long });
      expectMismatch(res, 'Mcp-Name');
      expect(res.body.error.message.length).toBeLessThan(300);
      expect(res.body.error.message).not.toContain(long);
    });
  });

  describe('Mcp-Param-* for x-mcp-header arguments (FIXTURE 2.7)', () => {
    const region = (value: string, header: string | null) => post(t.server, call('test_x_mcp_header', { region: value }), { 'mcp-param-region': header });

    it.each([
      ['Hello', '=?base64?SGVsbG8=?=', 'a base64-wrapped value, decoded before comparing'],
      ['SGVsbG8=', 'SGVsbG8=', 'a plain value that looks like base64 (a literal)'],
      ['=?base64?SGVsbG8=', '=?base64?SGVsbG8=', 'a prefix without the ?= suffix (a literal)'],
      ['SGVsbG8=?=', 'SGVsbG8=?=', 'a suffix without the prefix (a literal)'],
      ['=?BASE64?SGVsbG8=?=', '=?BASE64?SGVsbG8=?=', 'an upper-case =?BASE64? wrapper (a literal)'],
      ['Zürich', `=?base64?${Buffer.from('Zürich').toString('base64')}?=`, 'non-ASCII text, base64-wrapped'],
      [' padded ', `=?base64?${Buffer.from(' padded ').toString('base64')}?=`, 'leading and trailing spaces, base64-wrapped'],
      ['', '=?base64??=', 'an empty value, base64-wrapped'],
    ])('accepts body %j with header %j: %s', async (value, header) => {
      expectServed(await region(value, header));
    });

    it.each([
      ['Hello', '=?base64?SGVsbG8?=', 'malformed_header', 'bad padding'],
      ['Hello', '=?base64?SGVs!!!bG8=?=', 'malformed_header', 'characters outside the base64 alphabet'],
      ['Hello', '=?base64?SGVsbG8=====?=', 'malformed_header', 'too much padding'],
      ['Hello', '=?base64? SGVsbG8= ?=', 'malformed_header', 'spaces inside the wrapper'],
      ['Hello', '=?base64?/w==?=', 'malformed_header', 'bytes that are not UTF-8'],
      ['Hello', '=?BASE64?SGVsbG8=?=', 'header_mismatch', 'an upper-case wrapper, read as a literal that differs'],
      ['Hello', 'hello', 'header_mismatch', 'a value differing in case'],
      ['test-value', null, 'missing_header', 'no header at all while the body holds the value'],
    ])('refuses body %j with header %j (%s): %s', async (value, header, reason, _why) => {
      let res: any;
      const mark = await rejectionOf(async () => (res = await region(value, header)));
      expectMismatch(res, 'Mcp-Param-Region');
      expect(mark).toEqual({ rejecter: 'header-binding-check', reason });
    });

    it('refuses a plain header value carrying a byte outside visible ASCII', async () => {
      const body = call('test_x_mcp_header', { region: 'é' });
      const lines = linesFor(body, {}, [['Mcp-Param-Region', 'é']]);
      let res: any;
      const mark = await rejectionOf(async () => (res = await rawRequest(t.server, { headers: lines, body: JSON.stringify(body) })));
      expect(res.status).toBe(400);
      expect((res.body as any).error.code).toBe(-32020);
      expect(mark).toEqual({ rejecter: 'header-binding-check', reason: 'malformed_header' });
    });

    it('accepts an argument that is absent when no header is sent', async () => {
      expectServed(await post(t.server, call('test_x_mcp_header', { level: 3 })));
      expectServed(await post(t.server, call('test_x_mcp_header')));
    });

    it('accepts a null argument when no header is sent', async () => {
      const res = await post(t.server, call('mirror', { region: null }));
      expect(res.status).toBe(200);
      expect(res.body.error).toBeUndefined();
    });

    it.each([
      ['test_x_mcp_header', { level: 3 }, 'Region'],
      ['proto_named', {}, 'ToString'], // not found through Object.prototype
    ])('refuses a header sent for an argument that is absent (an intermediary may have routed on it): %s', async (tool, args, param) => {
      let res: any;
      const mark = await rejectionOf(async () => (res = await post(t.server, call(tool, args), { [`mcp-param-${param.toLowerCase()}`]: 'us' })));
      expectMismatch(res, `Mcp-Param-${param}`);
      expect(mark).toEqual({ rejecter: 'header-binding-check', reason: 'header_mismatch' });
    });

    it('refuses a header sent for an argument that is null', async () => {
      let res: any;
      const mark = await rejectionOf(async () => (res = await post(t.server, call('mirror', { region: null }), { 'mcp-param-region': 'us' })));
      expectMismatch(res, 'Mcp-Param-Region');
      expect(mark).toEqual({ rejecter: 'header-binding-check', reason: 'header_mismatch' });
    });

    it('ignores an Mcp-Param-* header that no annotation declares', async () => {
      expectServed(await post(t.server, call('test_x_mcp_header', { region: 'eu' }), { 'mcp-param-region': 'eu', 'mcp-param-level': '999' }));
    });

    it('matches Mcp-Param-* header names without case', async () => {
      const body = call('test_x_mcp_header', { region: 'eu' });
      const res = await rawRequest(t.server, { headers: linesFor(body, {}, [['mCp-PaRaM-rEgIoN', 'eu']]), body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      expect((res.body as any).result.resultType).toBe('complete');
    });

    it.each([
      [42, '42'],
      [42, '42.0'],
      [42, '4.2e1'],
      [42, '4.2e+1'],
      [-7, '-7'],
      [0, '-0'],
      [9007199254740991, '9007199254740991'],
    ])('accepts integer %j with header %j (compared numerically)', async (count, header) => {
      expectServed(await post(t.server, call('mirror', { count }), { 'mcp-param-count': header }));
    });

    it.each([
      [42, '43'],
      [42, '42.5'],
      [42, '42.'],
      [42, '42.0000000000000001'],
      [42, 'forty-two'],
      [42, '+42'],
      [42, '0x2a'],
    ])('refuses integer %j with header %j', async (count, header) => {
      const res = await post(t.server, call('mirror', { count }), { 'mcp-param-count': header });
      expectMismatch(res, 'Mcp-Param-Count');
    });

    // 9007199254740993 parses as 9007199254740992: a header spelling either is refused.
    it.each(['9007199254740993', '9007199254740992'])('refuses an integer argument outside ±(2^53−1), which no header can mirror (header %s)', async (header) => {
      const body = JSON.stringify(call('mirror', { count: 1 })).replace('"count":1', '"count":9007199254740993');
      const res = await post(t.server, body, {
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'mirror',
        'mcp-param-count': header,
      });
      expectMismatch(res, 'Mcp-Param-Count');
      expect(res.body.error.message).toContain('outside ±(2^53−1)');
    });

    it.each([['7'], [null]])('refuses 1e400 (Infinity once parsed) as an integer argument out of range, header %j', async (header) => {
      const body = JSON.stringify(call('mirror', { count: 1 })).replace('"count":1', '"count":1e400');
      const headers: Record<string, string> = { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'mirror' };
      if (header !== null) headers['mcp-param-count'] = header;
      const res = await post(t.server, body, headers);
      expectMismatch(res, 'Mcp-Param-Count');
      expect(res.body.error.message).toContain('outside ±(2^53−1)');
    });

    it.each([
      [true, 'true', true],
      [false, 'false', true],
      [true, 'TRUE', false],
      [true, '1', false],
    ])('compares boolean %j with header %j as lower-case true/false (accepted: %j)', async (flag, header, accepted) => {
      const res = await post(t.server, call('mirror', { flag }), { 'mcp-param-flag': header });
      if (accepted) expectServed(res);
      else expectMismatch(res, 'Mcp-Param-Flag');
    });

    it('binds an argument nested under a pure properties chain', async () => {
      expectServed(await post(t.server, call('mirror', { nested: { zone: 'eu-1' } }), { 'mcp-param-zone': 'eu-1' }));
      expectMismatch(await post(t.server, call('mirror', { nested: { zone: 'eu-1' } })), 'Mcp-Param-Zone');
    });

    it.each([{ count: 'many' }, { count: 1.5 }, { flag: 'yes' }])(
      "binds nothing to a value of a type its annotation cannot spell (%j), leaving it to the tool's input validation",
      async (args) => {
        const res = await post(t.server, call('mirror', args));
        expect(res.status).toBe(200);
        expect(res.body.result.isError).toBe(true);
      },
    );

    it('checks no Mcp-Param-* for an unknown tool, which tools/call answers with -32602', async () => {
      const res = await post(t.server, call('no_such_tool', { region: 'eu' }), { 'mcp-param-region': 'elsewhere' });
      expect(res.status).toBe(200);
      expect(res.body.error.code).toBe(-32602);
    });
  });

  describe('repeated header lines (the singleton-header check, ahead of header binding)', () => {
    it('refuses an Mcp-Param-* header sent as two lines (supertest array form) with exactly one rejection event', async () => {
      const events = await recordEvents(['mcp:wire:reject'], () => post(t.server, call('test_x_mcp_header', { region: 'eu' }), { 'mcp-param-region': ['eu', 'eu'] }));
      expect(events).toHaveLength(1);
      expect(events[0]!.message).toMatchObject({ rejecter: 'singleton-header-check', reason: 'duplicate_header', status: 400, code: -32020 });
    });

    it.each([
      ['MCP-Protocol-Version', 'mcp-protocol-version'],
      ['Mcp-Method', 'mcp-method'],
      ['Mcp-Name', 'mcp-name'],
      ['Mcp-Param-region', 'mcp-param-region'],
    ])('refuses two %s lines with 400 + -32020 naming the header, even when they agree', async (header, name) => {
      const body = call('test_x_mcp_header', { region: 'eu' });
      const value = name === 'mcp-param-region' ? 'eu' : name === 'mcp-name' ? 'test_x_mcp_header' : name === 'mcp-method' ? 'tools/call' : '2026-07-28';
      let res: any;
      const mark = await rejectionOf(async () => (res = await post(t.server, body, { 'mcp-param-region': 'eu', [name]: [value, value] })));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32020);
      expect(res.body.error.data).toEqual({ header });
      expect(res.body.error.message).toBe(`Header mismatch: the ${header} header is sent more than once; send it once.`);
      expect(mark).toEqual({ rejecter: 'singleton-header-check', reason: 'duplicate_header' });
    });

    it('bounds a long Mcp-Param-* name where the refusal of its repeat names it', async () => {
      const name = `mcp-param-${'z'.repeat(4000)}`;
      const res = await post(t.server, call('test_x_mcp_header', { region: 'eu' }), { 'mcp-param-region': 'eu', [name]: ['1', '1'] });
      expect([res.status, res.body.error.code]).toEqual([400, -32020]);
      expect(res.body.error.data.header.length).toBeLessThan(120);
      expect(res.body.error.data.header.startsWith(`Mcp-Param-${'z'.repeat(60)}`)).toBe(true);
      expect(res.body.error.message.length).toBeLessThan(200);
    });

    /** A call whose header block ends in a repeated Mcp-Method line, `total` lines in all (Host and Content-Length included). */
    const sendLines = (total: number) => {
      const body = call('test_x_mcp_header', { region: 'eu' });
      const lines = linesFor(body, { 'mcp-param-region': 'eu' });
      const fill = total - lines.length - 4; // rawRequest adds Host, Content-Length and Connection; the repeat is the last line
      return rawRequest(t.server, { headers: [...lines, ...fillerLines(fill), ['Mcp-Method', 'tools/list']], body: JSON.stringify(body) });
    };
    /**
     * The refusal of a request past the lines Node reads: the guard's where Node drops them, where it refuses them
     * Node's own (no body on Express, Fastify's JSON error on Fastify).
     */
    const expectCut = async (total: number) => {
      let res: RawResponse | undefined;
      const mark = await rejectionOf(async () => void (res = await sendLines(total)));
      if (NODE_REFUSES_EXCESS_LINES) {
        expect({ mark, status: res!.status }).toEqual({ mark: undefined, status: 431 });
        return;
      }
      expect(mark).toEqual({ rejecter: 'origin-check', reason: 'too_many_header_lines' });
      expect(res!.status).toBe(431);
      expect(res!.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringMatching(/^Request header fields too large: /) } });
    };

    it('refuses a repeat hidden past the header lines Node reads (431), and finds one before them', async () => {
      await expectCut(NODE_HEADER_LINES_READ + 20);
      expect(await rejectionOf(() => sendLines(NODE_HEADER_LINES_READ - 1))).toEqual({ rejecter: 'singleton-header-check', reason: 'duplicate_header' });
    });

    it('at exactly the lines Node reads, refuses 431 where Node drops lines past them, and finds the repeat where Node refuses more itself', async () => {
      if (NODE_REFUSES_EXCESS_LINES) {
        // Nothing past them can have been dropped: the whole block was read, so the repeat is seen.
        expect(await rejectionOf(() => sendLines(NODE_HEADER_LINES_READ))).toEqual({ rejecter: 'singleton-header-check', reason: 'duplicate_header' });
      } else {
        await expectCut(NODE_HEADER_LINES_READ);
      }
    });

    /** Runs `body` while the host server's `maxHeadersCount` is `count`. */
    const withHeadersCount = async (count: number, body: () => Promise<void>) => {
      const before = t.server.maxHeadersCount;
      t.server.maxHeadersCount = count;
      try {
        await body();
      } finally {
        t.server.maxHeadersCount = before;
      }
    };

    // Node reads the count as a 32-bit integer (it keeps `maxHeadersCount << 1` names and values).
    it.each([40, 40.5, 2 ** 32 + 40])("follows the host server's maxHeadersCount %p as Node reads it: 40 lines, so a request of 60 is cut", (count) =>
      withHeadersCount(count, async () => {
        await expectCut(60);
        expect(await rejectionOf(() => sendLines(39))).toEqual({ rejecter: 'singleton-header-check', reason: 'duplicate_header' });
      }),
    );

    it.each([0, 0.5, 2 ** 31])('cuts no request under a maxHeadersCount of %p, under which Node reads every line', (count) =>
      withHeadersCount(count, async () => {
        expect(await rejectionOf(() => sendLines(NODE_HEADER_LINES_READ + 200))).toEqual({ rejecter: 'singleton-header-check', reason: 'duplicate_header' });
      }),
    );

    it('counts lines whose names differ only in case as repeats', async () => {
      const body = call('test_x_mcp_header');
      const lines = linesFor(body, { 'mcp-name': null }, [
        ['Mcp-Name', 'test_x_mcp_header'],
        ['mcp-name', 'test_x_mcp_header'],
      ]);
      const mark = await rejectionOf(() => rawRequest(t.server, { headers: lines, body: JSON.stringify(body) }));
      expect(mark).toEqual({ rejecter: 'singleton-header-check', reason: 'duplicate_header' });
    });

    it('serves repeated lines of headers it does not own, Object.prototype names included', async () => {
      const body = call('test_x_mcp_header', { region: 'eu' });
      const repeated: HeaderLine[] = ['Constructor', '__proto__', 'toString', 'hasOwnProperty'].flatMap((name): HeaderLine[] => [
        [name, 'a'],
        [name, 'b'],
      ]);
      const res = (await rawRequest(t.server, { headers: linesFor(body, { 'mcp-param-region': 'eu' }, repeated), body: JSON.stringify(body) })) as RawResponse & { body: any };
      expectServed(res);
    });
  });

  // The mount sets no header limit of its own: the host's HTTP server does (Node's maxHeaderSize, 16 KiB of header
  // lines by default), as docs/wire-checks.md documents (the spec asks a server to document any limit).
  describe("header size: the host server's limit, documented", () => {
    const region = (chars: number) => 'r'.repeat(chars);

    it('serves a mirrored value just under the default 16 KiB of header lines: the mount adds no lower limit', async () => {
      const value = region(15_000);
      const res = await post(t.server, call('test_x_mcp_header', { region: value }), { 'mcp-param-region': value });
      expectServed(res);
      expect(JSON.parse(firstText(res.body.result).text)).toEqual({ received: { region: value } });
    });

    it('is refused by the HTTP server with 431 past 16 KiB of header lines, before the mount sees the request', async () => {
      const value = region(17_000);
      const events = await recordEvents(['mcp:wire:reject'], async () => {
        const body = call('test_x_mcp_header', { region: value });
        const res = await rawRequest(t.server, { headers: linesFor(body, { 'mcp-param-region': value }), body: JSON.stringify(body) });
        expect(res.status).toBe(431);
      });
      expect(events).toEqual([]);
    });
  });
});

describe('the sample app declares a header annotation', () => {
  const server = useSampleApp();

  it('lists the weather tool with region mirrored into Mcp-Param-Region', async () => {
    const res = await post(server(), rpc('tools/list'));
    const weather = res.body.result.tools.find((tool: { name: string }) => tool.name === 'weather');
    expect(weather.inputSchema.properties.region['x-mcp-header']).toBe('Region');
  });

  it('serves weather when Mcp-Param-Region mirrors region, and refuses it when the header is missing', async () => {
    expectServed(await post(server(), call('weather', { region: 'eu-west' }), { 'mcp-param-region': 'eu-west' }));
    expectMismatch(await post(server(), call('weather', { region: 'eu-west' })), 'Mcp-Param-Region');
  });

  it("lists a legacy client every tool's input schema without annotations, each compiled by a strict validator (Firebase Genkit's client)", async () => {
    const legacy = await legacyPost(server(), { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const tools: { name: string; inputSchema: object }[] = legacy.messages[0]!.result.tools;
    expect(tools.map((tool) => tool.name)).toContain('weather');
    const strict = addFormats(new Ajv2020({ strict: true }));
    const refused = tools.flatMap((tool) => {
      try {
        strict.compile(tool.inputSchema);
        return [];
      } catch (error) {
        return [`${tool.name}: ${String(error)}`];
      }
    });
    expect(refused).toEqual([]);
  });
});

describe('header annotations and the legacy era', () => {
  const app = useTestApp({ providers: [RegionTool, MirrorTool] });
  /** The schema with every `x-mcp-header` key dropped, wherever it sits. */
  const unannotated = (schema: unknown) => JSON.parse(JSON.stringify(schema), (key, value: unknown) => (key === 'x-mcp-header' ? undefined : value));
  const byName = (tools: { name: string; inputSchema: unknown }[]) => Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema]));

  it.each(LEGACY_PROTOCOL_VERSIONS)(
    '%s: lists each tool without its x-mcp-header annotations (top-level and nested), which a strict validator compiles; 2026-07-28 keeps them',
    async (version) => {
      const modern = byName((await post(app().server, rpc('tools/list'))).body.result.tools);
      expect(JSON.stringify(modern)).toContain('"x-mcp-header":"Zone"');
      const legacy = await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, legacyHeaders(version));
      const schemas = byName(legacy.messages[0]!.result.tools);
      expect(Object.keys(schemas).sort()).toEqual(Object.keys(modern).sort());
      for (const [name, schema] of Object.entries(schemas)) {
        expect([name, schema]).toEqual([name, unannotated(modern[name])]);
        expect(() => new Ajv2020({ strict: true }).compile(schema as object)).not.toThrow(); // as Genkit's MCP client compiles them
      }
      // Still called as before: the legacy era binds no header.
      const called = await legacyPost(
        app().server,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'mirror', arguments: { region: 'eu', nested: { zone: 'z1' } } } },
        legacyHeaders(version),
      );
      expect(called.messages[0]!.result.isError).toBeFalsy();
    },
  );
});

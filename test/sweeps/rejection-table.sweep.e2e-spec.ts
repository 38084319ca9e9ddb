import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { CHAIN_GUARDS, REJECTION_TABLE, type RejectionRow } from '../../lib/index.js';
import { NODE_HEADER_LINES_READ } from '../../lib/util/header-lines.js';
import { EchoTool, HeaderDrivenAuth } from '../support/fixture-tools.js';
import { meta, post, recordEvents, rpc } from '../support/mcp-client.js';
import { fillerLines, NODE_REFUSES_EXCESS_LINES, rawRequest, stalledRequest } from '../support/raw-http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const CEILING = 2048;
const READ_TIMEOUT_MS = 300;
const VALUES_CAP = 200;

/** What a cell observed: the HTTP status and the raw body text. */
type Observed = { status: number; text: string; contentType?: string };
type Scenario = (t: TestApp) => Promise<Observed>;
/** `rejecter/reason` of each row (distributed over the rows, not their cross product). */
type RowKey = RejectionRow extends infer R ? (R extends RejectionRow ? `${R['rejecter']}/${R['reason']}` : never) : never;

const viaRaw = async (t: TestApp, headers: readonly (readonly [string, string])[], body: unknown): Promise<Observed> => {
  const res = await rawRequest(t.server, { headers, body: JSON.stringify(body) });
  return { status: res.status, text: res.text, contentType: String(res.headers['content-type']) };
};

const viaPost = async (t: TestApp, body: unknown, headers: Record<string, string | string[] | null> = {}): Promise<Observed> => {
  const res = await post(t.server, body, headers);
  return { status: res.status, text: res.text, contentType: res.headers['content-type'] };
};

/**
 * One request per rejection table row that reaches exactly that row. `satisfies Record<RowKey, …>` closes the
 * list: a row added to REJECTION_TABLE without a scenario here fails the type check.
 */
const SCENARIOS = {
  'origin-check/forbidden_origin': (t) => viaPost(t, rpc('server/discover'), { origin: 'http://evil.example.com' }),
  'origin-check/forbidden_host': (t) =>
    viaRaw(
      t,
      [
        ['host', 'evil.example.com'],
        ['content-type', 'application/json'],
        ['mcp-protocol-version', '2026-07-28'],
        ['mcp-method', 'server/discover'],
      ],
      rpc('server/discover'),
    ),
  'origin-check/too_many_header_lines': (t) =>
    viaRaw(
      t,
      [['content-type', 'application/json'], ['mcp-protocol-version', '2026-07-28'], ['mcp-method', 'server/discover'], ...fillerLines(NODE_HEADER_LINES_READ)],
      rpc('server/discover'),
    ),
  'origin-check/duplicate_origin': (t) => viaPost(t, rpc('server/discover'), { origin: ['http://localhost', 'http://localhost'] }),
  'origin-check/duplicate_host': (t) =>
    viaRaw(
      t,
      [
        ['host', '127.0.0.1'],
        ['host', '127.0.0.1'],
        ['content-type', 'application/json'],
        ['mcp-protocol-version', '2026-07-28'],
        ['mcp-method', 'server/discover'],
      ],
      rpc('server/discover'),
    ),
  'singleton-header-check/duplicate_header': (t) => viaPost(t, rpc('server/discover'), { 'mcp-method': ['server/discover', 'server/discover'] }),
  'auth-check/unauthorized': (t) => viaPost(t, rpc('server/discover'), { 'x-test-auth': 'deny' }),
  'auth-check/insufficient_scope': (t) => viaPost(t, rpc('server/discover'), { 'x-test-auth': 'scope' }),
  'auth-check/forbidden': (t) => viaPost(t, rpc('server/discover'), { 'x-test-auth': 'forbid' }),
  'auth-check/invalid_request': (t) => viaPost(t, rpc('server/discover'), { authorization: ['Bearer a', 'Bearer b'] }),
  'parse-step/duplicate_content_type': (t) =>
    viaRaw(
      t,
      [
        ['content-type', 'application/json'],
        ['content-type', 'text/plain'],
        ['mcp-protocol-version', '2026-07-28'],
        ['mcp-method', 'server/discover'],
      ],
      rpc('server/discover'),
    ),
  'parse-step/unsupported_media_type': (t) => viaPost(t, rpc('server/discover'), { 'content-type': 'text/plain' }),
  'parse-step/unsupported_content_encoding': (t) => viaPost(t, rpc('server/discover'), { 'content-encoding': 'gzip' }),
  'parse-step/unsupported_transfer_encoding': (t) =>
    viaRaw(
      t,
      [
        ['content-type', 'application/json'],
        ['mcp-protocol-version', '2026-07-28'],
        ['mcp-method', 'server/discover'],
        ['transfer-encoding', 'gzip, chunked'],
      ],
      rpc('server/discover'),
    ),
  'parse-step/body_too_large': (t) => viaPost(t, { ...rpc('server/discover'), pad: 'x'.repeat(CEILING) }),
  'parse-step/too_many_values': (t) => viaPost(t, { ...rpc('server/discover'), pad: Array.from({ length: VALUES_CAP }, () => 0) }),
  'parse-step/stalled_read': async (t) => {
    const head = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n';
    const raw = await stalledRequest(t.server, head, '{"jsonrpc":', READ_TIMEOUT_MS * 10);
    const [statusLine] = raw.split('\r\n');
    return { status: Number(statusLine!.split(' ')[1]), text: raw.slice(raw.indexOf('\r\n\r\n') + 4), contentType: /content-type: ([^\r]+)/i.exec(raw)?.[1] };
  },
  'parse-step/invalid_json': (t) => viaPost(t, '{"jsonrpc": "2.0", "id": 1,'),
  'parse-step/batch': (t) => viaPost(t, JSON.stringify([rpc('server/discover')])),
  'parse-step/not_an_object': (t) => viaPost(t, '"server/discover"'),
  'message-validation/invalid_message': (t) => viaPost(t, { jsonrpc: '1.0', id: 7, method: 'server/discover', params: { _meta: meta() } }),
  'message-validation/client_response': (t) => viaPost(t, { jsonrpc: '2.0', id: 7, result: { resultType: 'complete' } }),
  'answer-routing/unknown_answer': (t) =>
    viaPost(t, { jsonrpc: '2.0', id: 'mcp-input-none', result: { action: 'accept' } }, { 'mcp-protocol-version': null, 'mcp-method': null }),
  'protocol-fields/missing_protocol_fields': (t) => viaPost(t, { jsonrpc: '2.0', id: 7, method: 'server/discover', params: {} }),
  'protocol-fields/malformed_protocol_fields': (t) =>
    viaPost(t, rpc('server/discover', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': 2026 }) }), { 'mcp-protocol-version': '2026' }),
  'header-binding-check/missing_header': (t) => viaPost(t, rpc('server/discover'), { 'mcp-method': null }),
  'header-binding-check/header_mismatch': (t) => viaPost(t, rpc('server/discover'), { 'mcp-method': 'tools/list' }),
  'header-binding-check/malformed_header': (t) => viaPost(t, rpc('tools/call', { name: 'echo', arguments: { text: 'a' } }), { 'mcp-name': '=?base64?ZWNobw?=' }),
  'version-check/unsupported_version': (t) => viaPost(t, rpc('server/discover', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) })),
  'method-routing/unknown_method': (t) => viaPost(t, rpc('unknown/method')),
  'method-routing/removed_method': (t) => viaPost(t, rpc('initialize')),
  'method-routing/invalid_params': (t) => viaPost(t, rpc('tools/call', { name: 'echo', arguments: 'not an object' })),
} satisfies Record<RowKey, Scenario>;

/**
 * The expected table, read from the README (what users are promised), not from REJECTION_TABLE: a row changed in
 * the code alone fails its cell.
 */
const PROMISED = new Map(
  [
    ...readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
      .split('### The rejection table')[1]!
      .matchAll(/^\|\s*([a-z-]+)\s*\|\s*([a-z_]+)\s*\|\s*(\d{3})\s*\|\s*(\d{3}|—)\s*\|\s*(-\d+)\s*\|$/gm),
  ].map(([, rejecter, reason, status, legacyStatus, code]) => [
    `${rejecter}/${reason}`,
    { status: Number(status), legacyStatus: legacyStatus === '—' ? undefined : Number(legacyStatus), code: Number(code) },
  ]),
);

describe('rejection table sweep: every row is reached by a request and identified by its mark', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool, HeaderDrivenAuth],
      // requireJsonContentType: on, so its row is reached too (every other scenario sends application/json).
      options: { auth: HeaderDrivenAuth, maxBodyBytes: CEILING, maxBodyValues: VALUES_CAP, bodyReadTimeoutMs: READ_TIMEOUT_MS, requireJsonContentType: true },
    });
  });
  afterAll(() => t.close());

  it('has one scenario per row and no scenario without a row', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(REJECTION_TABLE.map((r) => `${r.rejecter}/${r.reason}`).sort());
  });

  it('lists the rows in the order a request meets their rejecters: the POST chain, answer routing, then method routing', () => {
    const runs = REJECTION_TABLE.map((row) => row.rejecter).filter((rejecter, i, all) => all[i - 1] !== rejecter);
    expect(runs).toEqual([...CHAIN_GUARDS.map((stage) => stage.rejecter).filter((rejecter) => rejecter !== null), 'answer-routing', 'method-routing']);
  });

  it('has exactly the rows the README promises', () => {
    expect([...PROMISED.keys()].sort()).toEqual(REJECTION_TABLE.map((r) => `${r.rejecter}/${r.reason}`).sort());
  });

  it("promises each row's legacy-era status as the table decides it (the legacy cells are proven in test/e2e/eras.e2e-spec.ts)", () => {
    for (const row of REJECTION_TABLE) {
      const expected = row.rejecter === 'method-routing' && row.reason === 'removed_method' ? undefined : 'legacyStatus' in row ? row.legacyStatus : row.status;
      expect({ row: `${row.rejecter}/${row.reason}`, legacy: PROMISED.get(`${row.rejecter}/${row.reason}`)?.legacyStatus }).toEqual({
        row: `${row.rejecter}/${row.reason}`,
        legacy: expected,
      });
    }
  });

  /** The rows whose scenario sends a JSON-RPC response (a client's answer), not a request. */
  const REACHED_BY_A_RESPONSE: ReadonlySet<string> = new Set(['message-validation/client_response', 'answer-routing/unknown_answer']);

  describe.each(REJECTION_TABLE.map((row) => [`${row.rejecter}/${row.reason}`, row] as const))('%s', (key, row) => {
    const promised = PROMISED.get(key);
    it(`answers the README's status and JSON-RPC code, marks the rejection and names the request id in its event`, async () => {
      let observed: Observed | undefined;
      const events = await recordEvents(['mcp:wire:reject'], async () => {
        observed = await SCENARIOS[key as RowKey](t);
      });
      const event = events.at(-1)?.message;
      const cell = `${key}: got ${observed?.status} ${observed?.text}`;
      if (key === 'origin-check/too_many_header_lines' && NODE_REFUSES_EXCESS_LINES) {
        // This Node refuses the request itself with the row's status, before the guard could (its body is the host's).
        expect({ cell, status: observed!.status, events }).toEqual({ cell, status: promised?.status, events: [] });
        return;
      }
      // Typed by the table's names, so a subscriber can switch over them (a plain string would not compile here).
      const mark: Pick<RejectionRow, 'rejecter' | 'reason'> | undefined = event && { rejecter: event.rejecter, reason: event.reason };
      expect({ cell, mark }).toEqual({ cell, mark: { rejecter: row.rejecter, reason: row.reason } });
      expect({ cell, status: observed!.status }).toEqual({ cell, status: promised?.status });
      expect(observed!.contentType).toMatch(/^application\/json/);
      const body = JSON.parse(observed!.text);
      expect(body.jsonrpc).toBe('2.0');
      expect(body.error.code).toBe(promised?.code);
      if (REACHED_BY_A_RESPONSE.has(key)) {
        // A JSON-RPC response is itself an answer: its refusal carries no id (the transport spec), its event names it.
        expect(body).not.toHaveProperty('id');
        expect(event!.id).toEqual(expect.anything());
      } else {
        expect(event!.id).toBe(body.id);
        // Past the parse step the id has been read: both the answer and the event carry it.
        if (!['origin-check', 'singleton-header-check', 'auth-check', 'parse-step'].includes(row.rejecter)) expect(body.id).toEqual(expect.anything());
      }
      expect(typeof body.error.message).toBe('string');
      expect(body.error.message).not.toMatch(/\n|at .*\(.*:\d+:\d+\)/);
    });
  });
});

import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { MCP_METHODS, REMOVED_METHODS, type McpMethod } from '../../lib/index.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { EchoTool } from '../support/fixture-tools.js';
import { post, rejectionOf, rpc } from '../support/mcp-client.js';
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
  'resources/list': { params: {}, served: false },
  'resources/templates/list': { params: {}, served: false },
  'resources/read': { params: { uri: 'test://x' }, served: false },
  'prompts/list': { params: {}, served: false },
  'prompts/get': { params: { name: 'p' }, served: false },
  'completion/complete': { params: { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'b' } }, served: false },
  'subscriptions/listen': { params: { notifications: { toolsListChanged: true } }, served: false },
} satisfies Record<McpMethod, { params: Record<string, unknown>; served: boolean; result?: string }>;

describe('methods sweep', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool] });
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
    const cell = CELLS[method];
    it(cell.served ? 'is served: 200 and a schema-valid result' : 'is not served: 404 + -32601, marked unknown_method', async () => {
      const body = rpc(method, cell.params, `m-${method}`);
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
});

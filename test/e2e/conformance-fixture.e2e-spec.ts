import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { ConformanceModule } from '../../conformance/src/app.module.js';
import { FIXTURE_TASKS } from '../../conformance/src/fixture-tasks.js';
import { FIXTURE_TOOLS, JsonSchema2020Tool } from '../../conformance/src/fixture-tools.js';
import type { McpToolOptions } from '../../lib/index.js';
import { MCP_TOOL_METADATA } from '../../lib/mcp.constants.js';
import { meta, post, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const declared = (tool: object) => Reflect.getMetadata(MCP_TOOL_METADATA, tool) as McpToolOptions;

/** The conformance fixture app (`npm run start:conformance`) serves what the official suite calls. */
describe('the conformance fixture', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [ConformanceModule], path: 'unused' });
  });
  afterAll(() => t.close());

  it('lists every fixture tool, led by one that answers a bare call (the suite calls the first listed tool) with a result', async () => {
    const res = await post(t.server, rpc('tools/list'));
    const names = res.body.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(expect.arrayContaining([...FIXTURE_TOOLS, ...FIXTURE_TASKS].map((tool) => declared(tool).name)));
    const bare = await post(t.server, rpc('tools/call', { name: names[0], arguments: {} }));
    expect(bare.status).toBe(200);
    expect(bare.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text' }] });
    expect(bare.body.result.isError).toBeUndefined();
  });

  it('serves the JSON Schema 2020-12 tool schema verbatim', async () => {
    const res = await post(t.server, rpc('tools/list'));
    const tool = res.body.result.tools.find((entry: { name: string }) => entry.name === 'json_schema_2020_12_tool');
    expect(tool.inputSchema).toEqual(declared(JsonSchema2020Tool).inputSchema);
  });

  it('answers test_missing_capability without sampling declared with 400 + -32021', async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'test_missing_capability', _meta: meta() }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });
});

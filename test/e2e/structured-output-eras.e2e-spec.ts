import { describe, expect, it } from '@jest/globals';

import { legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { post, rpc } from '../support/mcp-client.js';
import { PrimesTool, TotalTool } from '../support/structured-tools.js';
import { useTestApp } from '../support/suite-app.js';

const call = (name: string) => ({ jsonrpc: '2.0', id: name, method: 'tools/call', params: { name, arguments: {} } });

describe('an output schema whose root is not an object, by era', () => {
  const app = useTestApp({ providers: [PrimesTool, TotalTool] });

  it('2026-07-28: listed with it, answered with the array as structuredContent', async () => {
    const list = await post(app().server, rpc('tools/list'));
    const primes = list.body.result.tools.find((tool: { name: string }) => tool.name === 'primes');
    expect(primes.outputSchema).toEqual({ type: 'array', items: { type: 'integer' } });
    const res = await post(app().server, rpc('tools/call', { name: 'primes', arguments: {} }));
    expect(res.body.result).toMatchObject({ structuredContent: [2, 3, 5], content: [{ type: 'text', text: '[2,3,5]' }] });
  });

  it.each(['2025-11-25', '2025-06-18'])('%s: listed without it (those revisions type it as an object), the object one kept', async (version) => {
    const list = await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, legacyHeaders(version));
    const byName = Object.fromEntries(list.messages[0]!.result.tools.map((tool: { name: string }) => [tool.name, tool]));
    expect(byName.primes).toEqual({ name: 'primes', description: 'The first primes.', inputSchema: expect.any(Object) });
    expect(byName.total.outputSchema).toEqual({ type: 'object', properties: { total: { type: 'integer' } } });
  });

  it.each(['2025-11-25', '2025-06-18'])('%s: answered without the array structuredContent, its JSON in the text block; an object one kept', async (version) => {
    const primes = await legacyPost(app().server, call('primes'), legacyHeaders(version));
    expect(primes.messages[0]!.result).toEqual({ content: [{ type: 'text', text: '[2,3,5]' }] });
    const total = await legacyPost(app().server, call('total'), legacyHeaders(version));
    expect(total.messages[0]!.result).toEqual({ content: [{ type: 'text', text: '{"total":3}' }], structuredContent: { total: 3 } });
  });
});

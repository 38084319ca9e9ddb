import { readFileSync } from 'node:fs';

import { describe, expect, it } from '@jest/globals';

import { post, rpc } from '../support/mcp-client.js';
import { useSampleApp } from '../support/sample-app.js';

/** docs/tools.md says its answers were produced against the sample app: the JSON block after `heading`. */
function toolsDocExample(heading: string): unknown {
  const doc = readFileSync(new URL('../../docs/tools.md', import.meta.url), 'utf8');
  const at = doc.indexOf(heading);
  expect(at).toBeGreaterThan(-1);
  const block = /```json\n([\s\S]*?)```/.exec(doc.slice(at));
  return JSON.parse(block![1]!);
}

describe("docs/tools.md's examples are the sample app's answers", () => {
  const server = useSampleApp();

  it('help on an unknown tool: the valid tools and the help pointer', async () => {
    const res = await post(server(), rpc('tools/call', { name: 'help', arguments: { tool: 'task' } }));
    expect(res.body.result.isError).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text)).toEqual(toolsDocExample('An unknown target is never answered with something broader'));
  });

  it('the missing_required gate: the action schema the caller is shown', async () => {
    const res = await post(server(), rpc('tools/call', { name: 'tasks', arguments: { action: 'create', data: { due: '2026-08-01' } } }));
    expect(JSON.parse(res.body.result.content[0].text)).toEqual(toolsDocExample('**5. `missing_required`**'));
  });
});

import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { DISPATCH_GATES } from '../../lib/index.js';
import { TasksModule } from '../../sample/src/tasks/tasks.module.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The README's gate table: one row per gate, `| n | \`gate\` | \`arguments\` | message |`. */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const ROWS = [...README.matchAll(/^\|\s*(\d)\s*\|\s*`([a-z_]+)`\s*\|\s*`(\{.*\})`\s*\|\s*(.+?)\s*\|$/gm)].map(([, n, gate, args, message]) => ({
  n: Number(n),
  gate: gate!,
  args: JSON.parse(args!) as Record<string, unknown>,
  message: message!,
}));

describe('the README explains every dispatch gate with a true example answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [TasksModule] });
  });
  afterAll(() => t.close());

  it('has one row per gate, in DISPATCH_GATES order', () => {
    expect(ROWS.map((r) => r.gate)).toEqual([...DISPATCH_GATES]);
  });

  it.each(ROWS.map((r) => [r.gate, r] as const))('%s: the sample answers exactly that message', async (_gate, row) => {
    const res = await post(t.server, rpc('tools/call', { name: 'tasks', arguments: row.args }));
    expect(res.body.result.isError).toBe(true);
    const answer = JSON.parse(res.body.result.content[0].text);
    expect(answer.error).toBe(row.gate);
    expect(answer.message).toBe(row.message);
    expect(answer.help).toMatchObject({ tool: 'help' });
  });

  it("shows a near miss the sample answers: the README's misspelled action, and the start of its message", async () => {
    const [, args, message] = /\(`(\{"action":"[a-z]+"\})` reads `([^`]+) …`\)/.exec(README) ?? [];
    const res = await post(t.server, rpc('tools/call', { name: 'tasks', arguments: JSON.parse(args!) }));
    const answer = JSON.parse(res.body.result.content[0].text);
    expect(answer.error).toBe('unknown_action');
    expect(message).toContain('(did you mean');
    expect(answer.message.startsWith(`${message!} `)).toBe(true);
  });
});

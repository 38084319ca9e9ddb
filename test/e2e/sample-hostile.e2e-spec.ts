import { describe, expect, it } from '@jest/globals';

import { post, rpc } from '../support/mcp-client.js';
import { accept, callTool } from '../support/mrtr-client.js';
import { useSampleApp } from '../support/sample-app.js';

/** The most an answer to a hostile argument may weigh: it quotes what was sent bounded, never whole. */
const ANSWER_BOUND = 4096;
const HUGE = 'x'.repeat(200_000);

/** The sample's tools under hostile arguments: no prototype lookups, nothing echoed unbounded. */
describe('the sample tools, given hostile arguments', () => {
  const server = useSampleApp();
  const weather = (region: string, headerValue = region) => post(server(), rpc('tools/call', { name: 'weather', arguments: { region } }), { 'mcp-param-region': headerValue });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('finds no weather for the region %p (no Object.prototype member leaks out)', async (region) => {
    const res = await weather(region);
    expect(res.status).toBe(200);
    const text = res.body.result.content[0].text as string;
    expect(text).toBe(`No weather for region "${region}"; known: eu-west, us-east, ap-south.`);
    expect(text).not.toMatch(/function|native code/);
  });

  it('refuses a 12 kB region (as long as its mirrored header can be) by its schema, quoting it bounded', async () => {
    const res = await weather('x'.repeat(12_000));
    expect(res.body.result).toMatchObject({ isError: true });
    expect(res.text).toMatch(/at most 64 character/);
    expect(res.text.length).toBeLessThan(ANSWER_BOUND);
    expect(res.text).not.toContain('x'.repeat(200));
  });

  it('answers delete_note for a 200 kB title within a few kB', async () => {
    const res = await callTool(server(), 'delete_note', { title: HUGE }, { inputResponses: { confirm_delete: accept({ confirm: true }) } });
    expect(res.body.result?.isError ?? res.body.error).toBeTruthy();
    expect(res.text.length).toBeLessThan(ANSWER_BOUND);
    expect(res.text).not.toContain('x'.repeat(200));
  });

  it('answers review_note for a 200 kB title within a few kB, control characters escaped', async () => {
    const res = await post(server(), rpc('prompts/get', { name: 'review_note', arguments: { title: `${HUGE}\n\u202e` } }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'unknown_note' } });
    expect(res.text.length).toBeLessThan(ANSWER_BOUND);
    expect(res.text).not.toContain('x'.repeat(200));
    const short = await post(server(), rpc('prompts/get', { name: 'review_note', arguments: { title: 'a\nb\u202e' } }));
    expect(short.body.error.message).toBe('No note titled "a\\u000ab\\u202e".');
  });

  it('refuses a task title past 200 characters by its schema, and keeps at most 1000 tasks', async () => {
    const long = await callTool(server(), 'tasks', { action: 'create', data: { title: HUGE } });
    expect(long.text).toMatch(/at most 200 character/);
    expect(long.text.length).toBeLessThan(ANSWER_BOUND);
    let refused: string | undefined;
    for (let i = 0; i < 1001 && refused === undefined; i++) {
      const res = await callTool(server(), 'tasks', { action: 'create', data: { title: `task ${i}` } });
      if (res.body.result.isError) refused = res.body.result.content[0].text;
    }
    expect(refused).toBe('Operation failed: this sample keeps at most 1000 tasks');
  }, 60_000);

  it('quotes an unknown title of ordinary length whole', async () => {
    const res = await callTool(server(), 'delete_note', { title: 'no such note' });
    expect(res.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No note titled "no such note".' }] });
  });
});

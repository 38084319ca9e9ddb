import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { McpAction, McpTool, ok, type McpContext } from '../../lib/index.js';
import { accept, callTool } from '../support/mrtr-client.js';
import { sseMessages } from '../support/sse.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** An action tool whose actions use the context's multi round-trip calls and progress. */
@McpTool({ name: 'files', description: 'File operations' })
class FilesTool {
  readonly deleted: string[] = [];

  @McpAction({ description: 'Delete a file after confirmation', properties: { path: { type: 'string' } }, required: ['path'] })
  async remove(data: { path: string }, ctx: McpContext) {
    const answer = await ctx.elicit(
      { message: `Delete ${data.path}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } },
      { key: 'confirm' },
    );
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return ok({ kept: data.path });
    this.deleted.push(data.path);
    return ok({ deleted: data.path, action: ctx.action });
  }

  @McpAction({ description: 'Copy files, reporting progress', properties: { count: { type: 'integer', minimum: 1 } }, required: ['count'] })
  async copy(data: { count: number }, ctx: McpContext) {
    for (let i = 1; i <= data.count; i++) ctx.progress(i, data.count, `copied ${i}`);
    return ok({ copied: data.count });
  }
}

describe('an action tool using multi round-trip requests and progress', () => {
  let t: TestApp;
  let tool: FilesTool;
  beforeAll(async () => {
    t = await createTestApp({ providers: [FilesTool] });
    tool = t.app.get(FilesTool);
  });
  afterAll(() => t.close());

  it('ends the first round with input_required after the gates passed, then runs the action with the answer', async () => {
    const args = { action: 'remove', data: { path: '/tmp/a' } };
    const first = await callTool(t.server, 'files', args);
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Delete /tmp/a?' } } },
    });
    expect(tool.deleted).toEqual([]);
    const second = await callTool(t.server, 'files', args, {
      inputResponses: { confirm: accept({ confirm: true }) },
      requestState: first.body.result.requestState,
    });
    expect(second.body.result.resultType).toBe('complete');
    expect(JSON.parse(second.body.result.content[0].text)).toMatchObject({ deleted: '/tmp/a', action: 'remove' });
    expect(tool.deleted).toEqual(['/tmp/a']);
  });

  it('answers a gate refusal without asking for input (the gates run before the action)', async () => {
    const res = await callTool(t.server, 'files', { action: 'remove', data: {} });
    expect(res.body.result.resultType).toBe('complete');
    expect(res.body.result.isError).toBe(true);
    expect(res.body.result).not.toHaveProperty('inputRequests');
  });

  it('streams progress from an action on the request SSE stream, then the result', async () => {
    const res = await callTool(t.server, 'files', { action: 'copy', data: { count: 3 } }, { meta: { progressToken: 'p1' } });
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const messages = sseMessages(res.text);
    expect(messages.slice(0, 3).map((m) => (m.params as { progress: number }).progress)).toEqual([1, 2, 3]);
    expect(messages.slice(0, 3).every((m) => m.method === 'notifications/progress' && (m.params as { progressToken: string }).progressToken === 'p1')).toBe(true);
    expect(messages.at(-1)).toMatchObject({ result: { resultType: 'complete' } });
    expect(messages).toHaveLength(4);
  });
});

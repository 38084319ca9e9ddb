import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { McpTool, type McpContext, type McpPlainTool } from '../../lib/index.js';
import { legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { mirroredHeaders } from '../support/mcp-client.js';
import { toolCall } from '../support/mrtr-client.js';
import { proxiedRequest } from '../support/raw-http.js';
import { sseMessages } from '../support/sse.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { nextEvent } from '../support/wait.js';

/** The proxy's read timeout here (nginx's `proxy_read_timeout`, 60 s by default), the keep-alive interval well under it. */
const READ_TIMEOUT_MS = 400;
const KEEP_ALIVE_MS = 100;
/** How long the tools below stay silent: past the read timeout. */
const QUIET_MS = 1000;

/** What the quiet tool saw of its signal. */
const quietRuns: { aborted: boolean }[] = [];

/** Reports progress when asked (the answer turns SSE), then works silently for `QUIET_MS`. */
@McpTool({ name: 'quiet', description: 'Works silently.', inputSchema: { type: 'object', properties: { progress: { type: 'boolean' } } } })
class QuietTool implements McpPlainTool {
  async run(args: { progress?: boolean }, ctx: McpContext) {
    const run = { aborted: false };
    quietRuns.push(run);
    if (args.progress) ctx.progress(0, 1, 'started');
    await sleep(QUIET_MS, undefined, { signal: ctx.signal }).catch(() => undefined);
    run.aborted = ctx.signal.aborted;
    return 'done';
  }
}

/** Asks the user to confirm: on the legacy era, a request on the call's stream that waits for the client's answer. */
@McpTool({ name: 'confirm', description: 'Asks first.', inputSchema: { type: 'object', properties: {} } })
class ConfirmTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const answer = await ctx.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return answer.action;
  }
}

/** The body of an answer read over HTTP/1.0 (no chunking: the body runs to the close). */
const bodyOf = (text: string): string => text.slice(text.indexOf('\r\n\r\n') + 4);

describe('behind a reverse proxy whose read timeout cuts a connection that stays silent (nginx at its defaults, HTTP/1.0 upstream)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [QuietTool, ConfirmTool], options: { subscriptions: { keepAliveMs: KEEP_ALIVE_MS } } });
  });
  afterAll(() => t.close());

  it("a call's SSE answer carries keep-alive comments while its tool works silently, so the proxy keeps it to the result", async () => {
    const body = toolCall('quiet', { progress: true }, { meta: { progressToken: 'p' } });
    const answer = await proxiedRequest(t.server, body, mirroredHeaders(body), READ_TIMEOUT_MS);
    expect(answer.cut).toBe(false);
    expect(bodyOf(answer.text)).toContain(': keep-alive\n\n');
    const messages = sseMessages(bodyOf(answer.text));
    expect(messages.map((m) => m.method ?? 'response')).toEqual(['notifications/progress', 'response']);
    expect((messages[1] as any).result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(quietRuns.at(-1)).toEqual({ aborted: false });
  });

  it('a legacy call waiting on its client to answer an input request past the read timeout is kept open, and the answer is taken', async () => {
    const body = { jsonrpc: '2.0', id: 'confirm-1', method: 'tools/call', params: { name: 'confirm', arguments: {} } };
    let asked: Promise<{ status: number }> | undefined;
    const answer = await proxiedRequest(t.server, body, legacyHeaders(), READ_TIMEOUT_MS, (text) => {
      const request = sseMessages(bodyOf(text)).find((m) => m.method === 'elicitation/create');
      // The user takes longer to answer than the proxy waits for a byte.
      if (request && !asked) asked = sleep(QUIET_MS).then(() => legacyPost(t.server, { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { ok: true } } }));
    });
    expect((await asked)?.status).toBe(202);
    expect(answer.cut).toBe(false);
    expect(sseMessages(bodyOf(answer.text)).at(-1)).toEqual({ jsonrpc: '2.0', id: 'confirm-1', result: { content: [{ type: 'text', text: 'accept' }] } });
  });

  it("a JSON answer cannot carry a keep-alive: the proxy cuts a call silent past its read timeout, and the tool's signal aborts", async () => {
    const body = toolCall('quiet', {});
    const cancelled = nextEvent('mcp:request:cancelled');
    const answer = await proxiedRequest(t.server, body, mirroredHeaders(body), READ_TIMEOUT_MS);
    expect(answer).toEqual({ text: '', cut: true });
    expect(await cancelled).toEqual({ mount: '/mcp', method: 'tools/call', id: body.id, by: 'close' });
    await sleep(50);
    expect(quietRuns.at(-1)).toEqual({ aborted: true });
  });
});

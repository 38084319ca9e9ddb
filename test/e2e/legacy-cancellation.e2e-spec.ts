import { describe, expect, it } from '@jest/globals';

import { McpAuthDecision, McpTool, type McpContext, type McpPlainTool } from '../../lib/index.js';
import { PendingInputRequests } from '../../lib/mrtr/pending-input-requests.js';
import { LegacyCancellations } from '../../lib/response/legacy-cancellations.js';
import { initialize, legacyHeaders, legacyPost, legacyToolCall } from '../support/legacy-client.js';
import { recordEvents } from '../support/mcp-client.js';
import { ConfirmDeleteTool } from '../support/mrtr-tools.js';
import { useTestApp } from '../support/suite-app.js';
import type { TestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

/** Each run of the waiting tool by its tag: whether its signal aborted, and with what reason. */
const runs = new Map<string, { aborted: boolean; progressed: boolean; reason?: unknown }>();

/** Waits until its signal aborts (or 5 s), after one progress notification when the call asked for progress; returns 100 ms after an abort. */
@McpTool({ name: 'wait', description: 'Waits until cancelled.', inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] } })
class WaitTool implements McpPlainTool {
  async run({ tag }: { tag: string }, ctx: McpContext): Promise<string> {
    const run: { aborted: boolean; progressed: boolean; reason?: unknown } = { aborted: false, progressed: false };
    runs.set(tag, run);
    ctx.progress(1, 2, 'waiting');
    run.progressed = true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    run.aborted = ctx.signal.aborted;
    run.reason = ctx.signal.reason;
    if (ctx.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 100)); // slow to stop: its response closes first
    return ctx.signal.aborted ? 'cancelled' : 'waited';
  }
}

/** A session id as a legacy initialize issues it (declaring `capabilities`). */
async function sessionOf(t: TestApp, capabilities: Record<string, unknown> = {}): Promise<string> {
  return (await legacyPost(t.server, initialize('2025-11-25', capabilities), legacyHeaders(null))).headers.get('mcp-session-id')!;
}

const withSession = (session: string | undefined, extra: Record<string, string> = {}) =>
  legacyHeaders('2025-11-25', { ...(session && { 'mcp-session-id': session }), ...extra });

/** Starts a legacy call of the waiting tool; its answer (status, content type, body text) once it ends. */
function startCall(t: TestApp, tag: string, id: string | number, headers: Record<string, string>, progressToken?: string, signal?: AbortSignal) {
  const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait', arguments: { tag }, ...(progressToken && { _meta: { progressToken } }) } };
  const port = (t.server.address() as { port: number }).port;
  return fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers, body: JSON.stringify(body), signal }).then(async (res) => ({
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text: await res.text(),
  }));
}

/** A legacy `notifications/cancelled` of `requestId`; `reason` null sends none. */
const cancelled = (requestId: unknown, reason: string | null = 'the user pressed stop') => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, ...(reason !== null && { reason }) },
});

describe('a legacy notifications/cancelled, scoped by the session id initialize issued', () => {
  const app = useTestApp({
    providers: [WaitTool, ConfirmDeleteTool],
    options: { auth: { authenticate: (req) => McpAuthDecision.allow({ subject: String(req.headers['x-user'] ?? 'anyone') }) } },
  });

  it.each([
    ['a JSON answer', undefined],
    ['a streamed answer (after a progress notification)', 'progress-1'],
  ])('ends %s of the request it names: the tool is cancelled, the stream ends with no response', async (_what, progressToken) => {
    const t = app();
    const session = await sessionOf(t);
    const tag = `named-${progressToken ?? 'json'}`;
    const call = startCall(t, tag, 7, withSession(session), progressToken);
    await until(() => runs.get(tag)?.progressed === true, 'the tool to run');
    let answer!: Awaited<typeof call>;
    const events = await recordEvents(['mcp:request:cancelled', 'mcp:method:error', 'mcp:tool:error'], async () => {
      expect((await legacyPost(t.server, cancelled(7), withSession(session))).status).toBe(202);
      answer = await call;
      await until(() => t.app.get(LegacyCancellations).size === 0, 'the cancelled answer to leave'); // its response closed
    });
    // One cancellation, though the response also closes afterwards.
    expect(events).toEqual([
      { channel: 'mcp:request:cancelled', message: { mount: '/mcp', method: 'tools/call', id: 7, by: 'notification', reason: 'the user pressed stop' } },
    ]);
    expect(runs.get(tag)!.aborted).toBe(true);
    // The client's reason reaches the tool, in the AbortError its signal aborts with.
    expect(runs.get(tag)!.reason).toBeInstanceOf(DOMException);
    expect(runs.get(tag)!.reason).toMatchObject({ name: 'AbortError', message: 'The client cancelled the request: the user pressed stop.' });
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^text\/event-stream/);
    // The progress notification, if any, and no response: the spec asks for none to a cancelled request.
    const blocks = answer.text.split('\n\n').filter((block) => block.includes('data: '));
    expect(blocks.map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)).method)).toEqual(progressToken ? ['notifications/progress'] : []);
  });

  it.each([
    ['no reason', null, 'The client cancelled the request.', undefined],
    ['a reason ending its own sentence', 'Stopped by the user!', 'The client cancelled the request: Stopped by the user!', 'Stopped by the user!'],
    ['a reason ending with a full stop', 'the user pressed stop.', 'The client cancelled the request: the user pressed stop.', 'the user pressed stop.'],
    ['a long reason with a line break', `stop\n${'x'.repeat(300)}`, `The client cancelled the request: stop\\u000a${'x'.repeat(189)}…`, `stop\\u000a${'x'.repeat(189)}…`],
  ])('carries %s to the signal and the event as the client gave it, bounded to 200 characters', async (what, reason, message, eventReason) => {
    const t = app();
    const session = await sessionOf(t);
    const tag = `reason-${what}`;
    const call = startCall(t, tag, 'call-with-reason', withSession(session));
    await until(() => runs.get(tag)?.progressed === true, 'the tool to run');
    const events = await recordEvents(['mcp:request:cancelled'], async () => {
      expect((await legacyPost(t.server, cancelled('call-with-reason', reason), withSession(session))).status).toBe(202);
      await call;
    });
    expect(runs.get(tag)!.reason).toMatchObject({ name: 'AbortError', message });
    const expected = { mount: '/mcp', method: 'tools/call', id: 'call-with-reason', by: 'notification', ...(eventReason !== undefined && { reason: eventReason }) };
    expect(events.map((e) => e.message)).toEqual([expected]);
  });

  it('closes the connection of an answer whose Accept excludes an event stream: no response follows', async () => {
    const t = app();
    const session = await sessionOf(t);
    const call = startCall(t, 'json-only', 11, withSession(session, { accept: 'application/json' })).catch((fault: unknown) => fault);
    await until(() => runs.get('json-only')?.progressed === true, 'the tool to run');
    expect((await legacyPost(t.server, cancelled(11), withSession(session))).status).toBe(202);
    expect(await call).toMatchObject({ message: 'fetch failed' }); // the connection closed: no answer
    expect(runs.get('json-only')!.aborted).toBe(true);
  });

  it('ends a call waiting for its client to answer an elicitation: the input request is withdrawn, and a late answer finds none', async () => {
    const t = app();
    const session = await sessionOf(t, { elicitation: {} });
    let asked: Record<string, any> | undefined;
    const call = legacyToolCall(t.server, 'confirm_delete', { file: 'notes.txt' }, (request) => ((asked = request), 'no-answer'), { headers: withSession(session) });
    await until(() => t.app.get(PendingInputRequests).size === 1, 'the elicitation to wait for its answer');
    const events = await recordEvents(['mcp:request:cancelled', 'mcp:method:error', 'mcp:tool:error'], async () => {
      expect((await legacyPost(t.server, cancelled('call-confirm_delete'), withSession(session))).status).toBe(202);
      const answer = await call;
      expect(answer.messages.map((m) => m.method)).toEqual(['elicitation/create']); // no response
    });
    expect(events.map((e) => e.channel)).toEqual(['mcp:request:cancelled']); // the withdrawn request is no fault
    expect(t.app.get(PendingInputRequests).size).toBe(0);
    const late = await legacyPost(t.server, { jsonrpc: '2.0', id: asked!.id, result: { action: 'accept', content: { confirm: true } } }, withSession(session));
    expect(late.status).toBe(400);
  });

  it.each([
    ['another session id', (session: string, other: string) => ({ id: 8, headers: withSession(other) })],
    ['no session id', () => ({ id: 8, headers: withSession(undefined) })],
    ['another auth subject', (session: string) => ({ id: 8, headers: withSession(session, { 'x-user': 'mallory' }) })],
    ['the id as a string', (session: string) => ({ id: '8', headers: withSession(session) })],
    ['the 2026-07-28 era', (session: string) => ({ id: 8, headers: withSession(session, { 'mcp-protocol-version': '2026-07-28' }) })],
  ])('ignores a cancellation sent with %s: the call runs on to its answer', async (_what, sentWith) => {
    const t = app();
    const [session, other] = [await sessionOf(t), await sessionOf(t)];
    const tag = `ignored-${_what}`;
    const call = startCall(t, tag, 8, withSession(session));
    await until(() => runs.get(tag)?.progressed === true, 'the tool to run');
    const { id, headers } = sentWith(session, other);
    expect((await legacyPost(t.server, cancelled(id), headers)).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 50)); // a cancellation, had it been taken, acts at once
    expect(runs.get(tag)!.aborted).toBe(false);
    // Still tracked: the cancellation that names it from its own session id and subject then ends it, unanswered.
    expect(t.app.get(LegacyCancellations).size).toBe(1);
    const cancelledForReal = await legacyPost(t.server, cancelled(8), withSession(session));
    expect(cancelledForReal.status).toBe(202);
    expect((await call).text).not.toContain('"result"');
    expect(runs.get(tag)!.aborted).toBe(true);
  });

  it('tracks nothing of a request without a session id, and lets go of one answered', async () => {
    const t = app();
    const tag = 'untracked';
    const leave = new AbortController();
    const call = startCall(t, tag, 9, withSession(undefined), undefined, leave.signal).catch(() => 'left');
    await until(() => runs.get(tag)?.progressed === true, 'the tool to run');
    expect(t.app.get(LegacyCancellations).size).toBe(0);
    await legacyPost(t.server, cancelled(9), withSession(undefined));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs.get(tag)!.aborted).toBe(false);
    leave.abort();
    expect(await call).toBe('left');

    const ping = await legacyPost(t.server, { jsonrpc: '2.0', id: 10, method: 'ping' }, withSession(await sessionOf(t)));
    expect(ping.messages[0]).toMatchObject({ id: 10, result: {} });
    await until(() => t.app.get(LegacyCancellations).size === 0, 'the answered request to leave');
  });
});

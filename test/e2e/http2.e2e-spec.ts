import diagnosticsChannel from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import http2, { type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Injectable } from '@nestjs/common';

import { McpAuthDecision, McpTool, type McpAuth, type McpPlainTool } from '../../lib/index.js';
import { ArrivingBodies } from '../../lib/protocol/arriving-bodies.js';
import { EchoTool } from '../support/fixture-tools.js';
import { h2Connect, h2Post, h2Request, type H2Answer } from '../support/http2-client.js';
import { LateShutdownHold, LateShutdownHoldModule } from '../support/late-shutdown-hold.js';
import { initialize, legacyHeaders } from '../support/legacy-client.js';
import { MaintenanceInterceptor } from '../support/maintenance-interceptor.js';
import { meta, mirroredHeaders, recordEvents, rejectionOf, rpc } from '../support/mcp-client.js';
import { FloodTool, ProgressTool, SlowTool, floods, slowRuns } from '../support/mrtr-tools.js';
import { fillerLines } from '../support/raw-http.js';
import { sseMessages } from '../support/sse.js';
import { useTestApp } from '../support/suite-app.js';
import { SleeperTool, taskRuns } from '../support/task-tools.js';
import { TEST_ADAPTER, createTestApp } from '../support/test-app.js';
import { nextEvent, until } from '../support/wait.js';

/** Nest serves HTTP/2 on Fastify only: these run in the fastify project, skipped in the express one. */
const onFastify = TEST_ADAPTER === 'fastify' ? describe : describe.skip;

const echo = (text = 'hi') => rpc('tools/call', { name: 'echo', arguments: { text } });
const json = (answer: H2Answer) => JSON.parse(answer.text) as Record<string, any>;

onFastify('a mount on a Fastify host serving HTTP/2 (h2c)', () => {
  const app = useTestApp({ http2: true, providers: [EchoTool, ProgressTool, SlowTool, FloodTool], options: { maxBodyBytes: 4096, bodyReadTimeoutMs: 300 } });
  let session: ClientHttp2Session;
  beforeAll(() => {
    session = h2Connect(app().server);
  });
  afterAll(() => session.close());

  it('serves a 2026-07-28 tools/call, its :authority taken as the Host', async () => {
    const answer = await h2Post(session, echo());
    expect(answer.status).toBe(200);
    expect(json(answer).result.content).toEqual([{ type: 'text', text: 'hi' }]);
  });

  it('ends a refusal or fallthrough answer sent while the body still arrives at once and resets the stream after it (NO_ERROR), with no connection header', async () => {
    // Node warns once per process of a connection header on HTTP/2: this is the file's first answer that would carry one.
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.message);
    process.on('warning', warned);
    try {
      const start = JSON.stringify(echo()).slice(0, 20);
      const headers = { ':method': 'POST', ':path': '/mcp', ...mirroredHeaders(echo()) };
      const tooLarge = await h2Request(session, { ...headers, 'content-length': '100000' }, start, undefined, 2000);
      expect([tooLarge.status, json(tooLarge).error.code, tooLarge.rstCode]).toEqual([413, -32600, http2.constants.NGHTTP2_NO_ERROR]);
      const stalled = await h2Request(session, headers, start, undefined, 2000); // no byte more for bodyReadTimeoutMs
      expect([stalled.status, json(stalled).error.code, stalled.rstCode]).toEqual([408, -32600, http2.constants.NGHTTP2_NO_ERROR]);
      const below = await h2Request(session, { ...headers, ':path': '/mcp/below' }, start, undefined, 2000); // the fallthrough's 404
      expect([below.status, below.text, below.rstCode]).toEqual([404, 'Not Found\n', http2.constants.NGHTTP2_NO_ERROR]);
    } finally {
      process.off('warning', warned);
    }
    expect(warnings).toEqual([]);
    expect((await h2Post(session, echo('after'))).status).toBe(200);
  });

  it('refuses a foreign :authority, or a foreign Host beside a loopback one, as it refuses a foreign Host (403)', async () => {
    const loopback = `localhost:${(app().server.address() as AddressInfo).port}`;
    let answer: H2Answer | undefined;
    const mark = await rejectionOf(async () => (answer = await h2Post(session, echo(), { ':authority': 'evil.example' })));
    expect(mark).toEqual({ rejecter: 'origin-check', reason: 'forbidden_host' });
    expect([answer!.status, json(answer!).error.message]).toEqual([
      403,
      'Forbidden: the :authority pseudo-header value "evil.example" is not a loopback name, and a request arriving on a loopback address may carry another only when the server lists it in its allowedHosts option.',
    ]);
    // Both sent, each checked: the client adds no `:authority` of its own beside a `host`.
    const both = [
      [{ ':authority': loopback, host: 'evil.example' }, 'Host header'],
      [{ ':authority': 'evil.example', host: loopback }, ':authority pseudo-header'],
    ] as const;
    for (const [headers, refused] of both) {
      const res = await h2Post(session, echo(), headers);
      expect([res.status, json(res).error?.message]).toEqual([403, expect.stringContaining(`the ${refused} value "evil.example"`)]);
    }
  });

  it('serves a 2025-11-25 initialize, then a tools/call echoing its session id', async () => {
    const legacyPost = (body: Record<string, unknown>, headers: Record<string, string>) =>
      h2Request(session, { ':method': 'POST', ':path': '/mcp', ...headers }, JSON.stringify(body));
    const init = await legacyPost(initialize(), legacyHeaders(null));
    expect([init.status, json(init).result.protocolVersion]).toEqual([200, '2025-11-25']);
    const sessionId = init.headers['mcp-session-id'] as string;
    const call = await legacyPost(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'old' } } },
      legacyHeaders('2025-11-25', { 'mcp-session-id': sessionId }),
    );
    expect([call.status, json(call).result.content]).toEqual([200, [{ type: 'text', text: 'old' }]]);
  });

  it('resets only the stream (CANCEL) of a JSON-only call a legacy notifications/cancelled ends, and serves the session on', async () => {
    slowRuns.length = 0;
    const legacyPost = (body: Record<string, unknown>, headers: Record<string, string>) =>
      h2Request(session, { ':method': 'POST', ':path': '/mcp', ...headers }, JSON.stringify(body));
    const sessionId = (await legacyPost(initialize(), legacyHeaders(null))).headers['mcp-session-id'] as string;
    const scoped = (extra: Record<string, string> = {}) => legacyHeaders('2025-11-25', { 'mcp-session-id': sessionId, ...extra });
    const call = legacyPost({ jsonrpc: '2.0', id: 31, method: 'tools/call', params: { name: 'slow', arguments: {} } }, scoped({ accept: 'application/json' }));
    await until(() => slowRuns.length === 1, 'the slow tool to run');
    const cancel = await legacyPost({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 31 } }, scoped());
    const cut = await call;
    expect([cancel.status, cut.status, cut.text, cut.rstCode]).toEqual([202, 0, '', http2.constants.NGHTTP2_CANCEL]);
    await until(() => slowRuns[0]?.aborted === true, 'the slow tool to see its signal abort');
    expect((await h2Post(session, echo('after'))).status).toBe(200);
  });

  it('streams progress and then the result as SSE', async () => {
    const answer = await h2Post(session, rpc('tools/call', { name: 'progress', arguments: {}, _meta: meta({ progressToken: 'p' }) }));
    expect([answer.status, answer.headers['content-type']]).toEqual([200, 'text/event-stream']);
    const messages = sseMessages(answer.text);
    expect(messages.slice(0, -1).map((m) => (m.params as { progress: number }).progress)).toEqual([0, 50, 100]);
    expect((messages.at(-1)!.result as Record<string, unknown>).resultType).toBe('complete');
  });

  it('drops notifications rather than buffer them without bound when the client does not read its stream, never the result', async () => {
    floods.length = 0;
    const body = rpc('tools/call', { name: 'flood', arguments: {}, _meta: meta({ progressToken: 'flood' }) });
    const answer = await h2Post(session, body, {}, (req) => {
      req.pause(); // reads nothing until the tool is done: its flow-control window fills
      void until(() => floods[0]?.done === true, 'the flood to end', 10_000).finally(() => req.resume());
    });
    const messages = sseMessages(answer.text);
    expect(floods[0]!.sent).toBeLessThan(20_000);
    expect(messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(floods[0]!.sent);
    expect(JSON.parse((messages.at(-1)!.result as { content: { text: string }[] }).content[0]!.text)).toEqual({ sent: floods[0]!.sent });
  });

  it("aborts a waiting tool's signal when the client resets its stream, and serves on", async () => {
    slowRuns.length = 0;
    const body = rpc('tools/call', { name: 'slow', arguments: {}, _meta: meta({ progressToken: 's' }) });
    const events = await recordEvents(['mcp:request:cancelled'], async () => {
      const reset = await h2Post(session, body, {}, (req) => req.once('data', () => req.close(http2.constants.NGHTTP2_CANCEL)));
      expect(reset.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
      await until(() => slowRuns[0]?.finished === true, 'the slow tool to end');
    });
    expect(slowRuns[0]).toMatchObject({ aborted: true, progressAfterAbort: false });
    expect(events).toHaveLength(1);
    expect((await h2Post(session, echo('after'))).status).toBe(200);
  });

  it('opens a subscriptions/listen stream, and lets it go when the client resets it', async () => {
    const body = rpc('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const listen = await h2Post(session, body, {}, (req) => req.once('data', () => req.close(http2.constants.NGHTTP2_CANCEL)));
    expect([listen.status, sseMessages(listen.text)[0]!.method]).toEqual([200, 'notifications/subscriptions/acknowledged']);
    expect((await h2Post(session, echo('after'))).status).toBe(200);
  });

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }, 403, 'forbidden_origin'],
    ['a repeated Origin', { origin: ['http://localhost', 'http://localhost'] }, 400, 'duplicate_origin'],
    ['a repeated Mcp-Method', { 'mcp-method': ['tools/call', 'tools/call'] }, 400, 'duplicate_header'],
    ['a compressed body', { 'content-encoding': 'gzip' }, 415, 'unsupported_content_encoding'],
  ])('refuses %s as on HTTP/1.1', async (_what, headers, status, reason) => {
    let answer: H2Answer | undefined;
    const mark = await rejectionOf(async () => (answer = await h2Post(session, echo(), headers)));
    expect([answer!.status, mark?.reason, json(answer!).jsonrpc]).toEqual([status, reason, '2.0']);
  });

  it('refuses a body past maxBodyBytes (413) and invalid JSON (-32700)', async () => {
    const large = await h2Post(session, echo('x'.repeat(5000)));
    expect([large.status, json(large).error.code]).toEqual([413, -32600]);
    const invalid = await h2Request(session, { ':method': 'POST', ':path': '/mcp', 'content-type': 'application/json' }, '{"jsonrpc":');
    expect([invalid.status, json(invalid).error.code]).toEqual([400, -32700]);
  });

  it.each(['GET', 'DELETE'])('answers %s at the mount 405 with Allow: POST', async (method) => {
    const answer = await h2Request(session, { ':method': method, ':path': '/mcp' });
    expect([answer.status, answer.headers.allow, json(answer).error.code]).toEqual([405, 'POST', -32600]);
  });
});

/** An auth provider that, for a request carrying `x-wait-for-reset`, decides only once its client has reset the stream. */
@Injectable()
class WaitForResetAuth implements McpAuth {
  async authenticate(req: IncomingMessage): Promise<McpAuthDecision> {
    if (req.headers['x-wait-for-reset']) await new Promise((resolve) => req.once('close', resolve));
    return McpAuthDecision.allow({ subject: 'tester', scopes: [] });
  }
}

onFastify('a mount on HTTP/2 whose client resets the stream while the auth provider decides', () => {
  const app = useTestApp({ http2: true, providers: [EchoTool, WaitForResetAuth], options: { auth: WaitForResetAuth } });

  it('refuses it as an aborted read (408), never as a body a host parser took', async () => {
    const session = h2Connect(app().server);
    try {
      const rejected = nextEvent('mcp:wire:reject', 2000);
      await h2Post(session, echo(), { 'x-wait-for-reset': '1' }, (req) => req.once('ready', () => setTimeout(() => req.close(http2.constants.NGHTTP2_CANCEL), 20)));
      const { rejecter, reason } = await rejected;
      expect({ rejecter, reason }).toEqual({ rejecter: 'parse-step', reason: 'stalled_read' });
      expect((await h2Post(session, echo('after'))).status).toBe(200);
    } finally {
      session.close();
    }
  });
});

/** Answers with 1 MiB: far more than a stream's flow-control window (64 KiB), so most of it waits in the process. */
@McpTool({ name: 'big', description: 'Answers with a large text.', inputSchema: { type: 'object', properties: {} } })
class BigTool implements McpPlainTool {
  run(): string {
    return 'x'.repeat(1024 * 1024);
  }
}

onFastify('a mount on HTTP/2 whose clients keep their flow-control windows shut on many streams', () => {
  // Each answer (1 MiB) waits whole; the bound holds one of them, not two; the stall limit is far off.
  const app = useTestApp({ http2: true, providers: [BigTool], options: { writeStallTimeoutMs: 60_000, maxWaitingBytes: 1.5 * 1024 * 1024 } });

  it('cuts the streams waiting longest off (CANCEL) once the answers waiting pass maxWaitingBytes, never the newest, and serves the session on', async () => {
    const session = h2Connect(app().server, { initialWindowSize: 0 }); // the server may send no DATA at all
    const cuts: unknown[] = [];
    const heard = (message: unknown) => cuts.push(message);
    diagnosticsChannel.subscribe('mcp:answer:stalled', heard);
    try {
      const answers: Promise<H2Answer>[] = [];
      for (let i = 0; i < 3; i++) {
        const stopped = nextEvent('mcp:tool:stop');
        answers.push(h2Post(session, rpc('tools/call', { name: 'big', arguments: {} }, i)));
        await stopped;
        await until(() => cuts.length === i, `${i} streams cut`, 5_000);
      }
      expect(cuts).toEqual([0, 1].map(() => ({ mount: '/mcp', method: 'tools/call', waitingBytes: expect.any(Number), bound: 'maxWaitingBytes' })));
      session.settings({ initialWindowSize: 65_535 }); // the client reads again: the newest answer comes whole
      const [first, second, newest] = await Promise.all(answers);
      expect([first!.rstCode, second!.rstCode, first!.text, second!.text]).toEqual([http2.constants.NGHTTP2_CANCEL, http2.constants.NGHTTP2_CANCEL, '', '']);
      expect([newest!.status, newest!.rstCode, json(newest!).result.content[0].text.length]).toEqual([200, 0, 1024 * 1024]);
      expect(cuts).toHaveLength(2);
    } finally {
      diagnosticsChannel.unsubscribe('mcp:answer:stalled', heard);
      session.close();
    }
  });
});

onFastify('a mount on HTTP/2 whose client stops reading one stream of a session it keeps busy', () => {
  const STALL_MS = 1000;
  const app = useTestApp({
    http2: true,
    providers: [EchoTool, BigTool],
    options: { writeStallTimeoutMs: STALL_MS },
    configure: (nest) => nest.useGlobalInterceptors(new MaintenanceInterceptor()),
  });

  it.each([
    ['at once', (req: ClientHttp2Stream) => req.pause()],
    ['after reading some of it', (req: ClientHttp2Stream) => req.once('data', () => req.pause())],
  ])('cuts that stream off (CANCEL), stopped %s, once it took nothing of it for writeStallTimeoutMs, and serves the session on', async (_when, stop) => {
    const session = h2Connect(app().server);
    // Pings and calls on other streams: the connection's bytes keep moving while the one stream's do not.
    const busy = setInterval(() => session.ping(() => undefined), STALL_MS / 8);
    try {
      const stalled = nextEvent('mcp:answer:stalled', 10 * STALL_MS);
      const held = h2Post(session, rpc('tools/call', { name: 'big', arguments: {} }), {}, stop); // its window fills
      const during = await h2Post(session, echo('during'));
      expect((await stalled).method).toBe('tools/call');
      const cut = await held;
      expect([during.status, cut.status, cut.rstCode]).toEqual([200, 200, http2.constants.NGHTTP2_CANCEL]);
      expect((await h2Post(session, echo('after'))).status).toBe(200);
    } finally {
      clearInterval(busy);
      session.close();
    }
  });

  it.each([
    ['a refusal sent before the handler', { origin: 'https://evil.example' }, 403],
    ["the answer to a request a host interceptor answered in the mount's stead", { 'x-maintenance': '1' }, 500],
  ])('cuts off %s (CANCEL) that a client keeping its flow-control window shut does not take', async (_what, headers, status) => {
    const session = h2Connect(app().server, { initialWindowSize: 0 }); // the server may send no DATA at all
    const busy = setInterval(() => session.ping(() => undefined), STALL_MS / 8);
    try {
      const refused = await h2Post(session, echo(), headers);
      expect([refused.status, refused.text, refused.rstCode]).toEqual([status, '', http2.constants.NGHTTP2_CANCEL]);
    } finally {
      clearInterval(busy);
      session.close();
    }
    const other = h2Connect(app().server);
    expect((await h2Post(other, echo('after'))).status).toBe(200);
    other.close();
  });

  it("cuts off the fallthrough's answers (CANCEL) that such a client does not take: 405 at the mount, 404 below it", async () => {
    const session = h2Connect(app().server, { initialWindowSize: 0 });
    const busy = setInterval(() => session.ping(() => undefined), STALL_MS / 8);
    try {
      const [notAllowed, notFound] = await Promise.all([
        h2Request(session, { ':method': 'GET', ':path': '/mcp' }),
        h2Request(session, { ':method': 'GET', ':path': '/mcp/below' }),
      ]);
      expect([notAllowed.status, notAllowed.text, notAllowed.rstCode]).toEqual([405, '', http2.constants.NGHTTP2_CANCEL]);
      expect([notFound.status, notFound.text, notFound.rstCode]).toEqual([404, '', http2.constants.NGHTTP2_CANCEL]);
    } finally {
      clearInterval(busy);
      session.close();
    }
  });
});

onFastify('a mount on HTTP/2 whose client reads a large answer slowly', () => {
  const STALL_MS = 300;
  const app = useTestApp({ http2: true, providers: [BigTool], options: { writeStallTimeoutMs: STALL_MS } });

  it('sends the whole answer to a client that reads its stream slowly but keeps reading, over several looks of the watch', async () => {
    const session = h2Connect(app().server);
    try {
      // Pauses after every chunk it reads, far more briefly than the limit, so the answer takes several of them.
      const started = Date.now();
      const slow = await h2Post(session, rpc('tools/call', { name: 'big', arguments: {} }), {}, (req) =>
        req.on('data', () => (req.pause(), setTimeout(() => req.resume(), STALL_MS / 16))),
      );
      expect([slow.status, slow.rstCode, json(slow).result.content[0].text.length]).toEqual([200, 0, 1024 * 1024]);
      expect(Date.now() - started).toBeGreaterThan(2 * STALL_MS); // the watch looked twice at least
    } finally {
      session.close();
    }
  });
});

onFastify('a mount on an HTTP/2 server that takes more header fields than Node reads on HTTP/1.1 (maxHeaderListPairs)', () => {
  it('serves a request of 1,000 header lines and more: HTTP/2 drops none, so none can hide past a cut', async () => {
    const t = await createTestApp({ http2: { maxHeaderListPairs: 4000 }, providers: [EchoTool] });
    const session = h2Connect(t.server);
    try {
      const filler = Object.fromEntries(fillerLines(1200).map(([name, value]) => [name.toLowerCase(), value]));
      const answer = await h2Post(session, echo('many lines'), filler);
      expect([answer.status, json(answer).result?.content]).toEqual([200, [{ type: 'text', text: 'many lines' }]]);
    } finally {
      session.close();
      await t.close();
    }
  });
});

onFastify('a mount on HTTP/2 shutting down (app.close(), no forceCloseConnections) while a client keeps sending on its session', () => {
  it('closes the session gracefully (GOAWAY) after its next answer, as an HTTP/1.1 answer closes its connection, so the close completes', async () => {
    const t = await createTestApp({ http2: true, providers: [EchoTool, SleeperTool], appOptions: { forceCloseConnections: false } });
    const session = h2Connect(t.server);
    let goaway = false;
    session.once('goaway', () => (goaway = true));
    // A call under way holds the shutdown (shutdownGraceMs) while the host still takes requests.
    const underWay = h2Post(session, rpc('tools/call', { name: 'sleeper', arguments: { tag: 'h2-shutdown', ms: 300 } }));
    await until(() => taskRuns.has('h2-shutdown'), 'the call to run');
    let closed = false;
    const closing = t.close().then(() => (closed = true));
    const statuses: number[] = [];
    try {
      // A request every 20 ms while the session takes new streams (3 s at most): the session never idles.
      const deadline = Date.now() + 3000;
      while (!closed && !goaway && Date.now() < deadline) {
        statuses.push((await h2Post(session, echo('during'))).status);
        await sleep(20);
      }
      await until(() => closed, 'app.close() to complete', 3000);
    } finally {
      session.destroy();
      await closing;
    }
    expect([goaway, (await underWay).status, statuses.filter((status) => status !== 200)]).toEqual([true, 200, []]);
  });

  it('closes the session of a listen stream (GOAWAY) with the listen result it ends with, so the close completes', async () => {
    const t = await createTestApp({ http2: true, providers: [EchoTool], appOptions: { forceCloseConnections: false } });
    const session = h2Connect(t.server);
    let goaway = false;
    session.once('goaway', () => (goaway = true));
    try {
      let acknowledged!: () => void;
      const open = new Promise<void>((resolve) => (acknowledged = resolve));
      const listen = h2Post(session, rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }), {}, (req) => req.once('data', () => acknowledged()));
      await open;
      let closed = false;
      const closing = t.close().then(() => (closed = true));
      const ended = await listen;
      expect(sseMessages(ended.text).at(-1)!.result).toMatchObject({ resultType: 'complete' });
      await until(() => closed, 'app.close() to complete', 3000);
      expect(goaway).toBe(true);
      await closing;
    } finally {
      session.destroy();
    }
  });
});

onFastify('a mount on HTTP/2 shutting down (no forceCloseConnections) while a client keeps a session open it sends nothing on', () => {
  it.each([
    ['after a call (idle)', true],
    ['before any request', false],
  ])('closes the session %s gracefully (GOAWAY) once the wait is over, so the close completes (before Node 24 it held it until the client left)', async (_when, call) => {
    const t = await createTestApp({ http2: true, providers: [EchoTool], appOptions: { forceCloseConnections: false } });
    const session = h2Connect(t.server);
    let goaway = false;
    session.once('goaway', () => (goaway = true));
    try {
      if (call) expect((await h2Post(session, echo('before'))).status).toBe(200);
      else await new Promise((resolve) => session.once('connect', resolve));
      const at = Date.now();
      await t.close();
      expect(Date.now() - at).toBeLessThan(3_000);
      expect(goaway).toBe(true);
    } finally {
      session.destroy();
    }
  });
});

/** A host route of its own, answering 2.5 s after it is asked: past a short shutdown deadline and its delivery grace. */
@Controller('host')
class SlowHostController {
  @Get('slow')
  async slow() {
    await sleep(2_500);
    return { done: true };
  }
}

onFastify("a mount on HTTP/2 shutting down while a host route's call on a session runs past the delivery grace", () => {
  it('lets the call end and be answered: the session is closed (GOAWAY) and its connection cut only once it has', async () => {
    const t = await createTestApp({ http2: true, controllers: [SlowHostController], options: { shutdownGraceMs: 200 }, appOptions: { forceCloseConnections: false } });
    const session = h2Connect(t.server);
    let goaway = false;
    session.once('goaway', () => (goaway = true));
    try {
      const slow = h2Request(session, { ':method': 'GET', ':path': '/host/slow' });
      await sleep(100); // the call runs
      await t.close();
      const answer = await slow;
      expect([answer.status, answer.rstCode, JSON.parse(answer.text), goaway]).toEqual([200, 0, { done: true }, true]);
    } finally {
      session.destroy();
    }
  });
});

onFastify('a mount on HTTP/2 whose shutdown another hook holds open once its wait is over', () => {
  it('closes a session opened then (GOAWAY) a second after it opened, so the close completes once the hook lets go', async () => {
    LateShutdownHold.reached = false;
    const t = await createTestApp({ http2: true, providers: [EchoTool], imports: [LateShutdownHoldModule], appOptions: { forceCloseConnections: false } });
    const closing = t.close();
    let closed = false;
    void closing.then(() => (closed = true));
    try {
      await until(() => LateShutdownHold.reached, "the mount's wait to be over");
      const session = h2Connect(t.server);
      let goawayAt: number | undefined;
      session.once('goaway', () => (goawayAt = Date.now()));
      await new Promise((resolve) => session.once('connect', resolve));
      const openedAt = Date.now();
      // The GOAWAY comes while the hook still holds the server open: from Node 24, the server's own close() would
      // send one at once, so the mount's is seen only before that close begins.
      await until(() => goawayAt !== undefined, 'the GOAWAY', 5_000);
      expect(goawayAt! - openedAt).toBeGreaterThanOrEqual(900);
      expect(closed).toBe(false);
      LateShutdownHold.release(); // the server's close now waits for the session alone, closed already
      await until(() => closed, 'app.close() to complete', 5_000);
      session.destroy();
    } finally {
      LateShutdownHold.release();
      await closing;
    }
  });
});

onFastify('a mount on HTTP/2 shutting down (no forceCloseConnections) while a client does not read', () => {
  /** Runs `started` on a session (given its client SETTINGS), closes the app, and reports the stream, whether a GOAWAY came, and how long the close took; the client never closes its session. */
  async function closedUnread(spec: { tool: string; args: Record<string, unknown>; settings?: http2.Settings }, started: (req: ClientHttp2Stream, began: () => void) => void) {
    const t = await createTestApp({
      http2: true,
      providers: [BigTool, SleeperTool],
      options: { shutdownGraceMs: 200, writeStallTimeoutMs: 60_000 },
      appOptions: { forceCloseConnections: false },
    });
    const session = h2Connect(t.server, spec.settings);
    let goaway = false;
    session.once('goaway', () => (goaway = true));
    try {
      let began!: () => void;
      const under = new Promise<void>((resolve) => (began = resolve));
      const answer = h2Post(session, rpc('tools/call', { name: spec.tool, arguments: spec.args }), {}, (req) => started(req, began));
      await under;
      const at = Date.now();
      await t.close();
      return { answer: await answer, goaway, closedIn: Date.now() - at };
    } finally {
      session.destroy();
    }
  }

  it('an answer already written: resets its stream (CANCEL) at the shutdown deadline and closes its session (GOAWAY), so the close completes', async () => {
    const { answer, goaway, closedIn } = await closedUnread({ tool: 'big', args: {} }, (req, began) => {
      req.pause(); // its headers come: the answer is written, and waits for a window the client keeps shut
      req.once('response', began);
    });
    expect([answer.status, answer.rstCode, goaway]).toEqual([200, http2.constants.NGHTTP2_CANCEL, true]);
    expect(closedIn).toBeLessThan(3_000);
  });

  it('a call under way whose client keeps its window shut: its shutting_down answer, untaken, is cut once the delivery grace is over, not writeStallTimeoutMs', async () => {
    const { answer, goaway, closedIn } = await closedUnread(
      { tool: 'sleeper', args: { tag: 'h2-unread', ms: 60_000 }, settings: { initialWindowSize: 0 } },
      (_req, began) => void until(() => taskRuns.has('h2-unread'), 'the call to run').then(began),
    );
    // The 503's headers went (not flow-controlled); its body never could.
    expect([answer.status, answer.text, answer.rstCode, goaway]).toEqual([503, '', http2.constants.NGHTTP2_CANCEL, true]);
    expect(closedIn).toBeGreaterThanOrEqual(1_000);
    expect(closedIn).toBeLessThan(5_000);
  });

  it('a session closed during shutdown that its client keeps open (an answer it never consumes) is destroyed once the delivery grace after the deadline is over', async () => {
    const t = await createTestApp({ http2: true, providers: [SleeperTool], options: { shutdownGraceMs: 300 }, appOptions: { forceCloseConnections: false } });
    const session = h2Connect(t.server);
    let goaway = false;
    session.once('goaway', () => (goaway = true));
    try {
      // Ends on its own during the grace: its answer closes the session (GOAWAY), and the client never reads it.
      let status = 0;
      void h2Post(session, rpc('tools/call', { name: 'sleeper', arguments: { tag: 'h2-kept', ms: 100 } }), {}, (req) => {
        req.pause();
        req.once('response', (headers) => (status = Number(headers[':status'])));
      });
      await until(() => taskRuns.has('h2-kept'), 'the call to run');
      const at = Date.now();
      await t.close();
      const closedIn = Date.now() - at;
      expect([status, goaway]).toEqual([200, true]);
      expect(closedIn).toBeGreaterThanOrEqual(1_200);
      expect(closedIn).toBeLessThan(4_000);
    } finally {
      session.destroy();
    }
  });

  it('a session closed once the delivery grace is over, that its client keeps open, has its connection cut a second later', async () => {
    LateShutdownHold.reached = false;
    const t = await createTestApp({ http2: true, imports: [LateShutdownHoldModule], options: { shutdownGraceMs: 100 }, appOptions: { forceCloseConnections: false } });
    const at = Date.now();
    const closing = t.close();
    await until(() => LateShutdownHold.reached && Date.now() > at + 1_300, 'the delivery grace to be over', 5_000);
    // Opened now (a session open when the mount's wait ended is closed then).
    const session = h2Connect(t.server);
    try {
      let status = 0;
      // Refused (past the deadline), and never consumed: the graceful close of its session waits on the client.
      void h2Post(session, rpc('tools/list'), {}, (req) => {
        req.pause();
        req.once('response', (headers) => (status = Number(headers[':status'])));
      });
      await until(() => status !== 0, 'the refusal');
      await sleep(1_300);
      // Released once the connection was cut: nothing holds the server's close any more.
      LateShutdownHold.release();
      let closed = false;
      void closing.then(() => (closed = true));
      await until(() => closed, 'app.close() to complete', 1_000);
      expect(status).toBe(503);
    } finally {
      LateShutdownHold.release();
      session.destroy();
    }
  });

  it.each<[string, number, (session: ClientHttp2Session) => Promise<H2Answer>]>([
    ['a refusal', 403, (session) => h2Post(session, rpc('tools/list'), { origin: 'http://evil.example.com' })],
    ["the fallthrough's answer", 405, (session) => h2Request(session, { ':method': 'GET', ':path': '/mcp', accept: 'text/event-stream' })],
  ])('%s sent during shutdown that its client does not take (%s) is cut once the delivery grace after the deadline is over', async (_case, status, send) => {
    LateShutdownHold.reached = false;
    const t = await createTestApp({
      http2: true,
      imports: [LateShutdownHoldModule],
      options: { shutdownGraceMs: 200, writeStallTimeoutMs: 60_000 },
      appOptions: { forceCloseConnections: false },
    });
    const session = h2Connect(t.server, { initialWindowSize: 0 });
    try {
      const at = Date.now();
      const closing = t.close();
      await until(() => LateShutdownHold.reached, 'the shutdown to begin'); // the server still takes requests
      const refused = await send(session);
      const cutIn = Date.now() - at;
      LateShutdownHold.release();
      await closing;
      expect([refused.status, refused.text, refused.rstCode]).toEqual([status, '', http2.constants.NGHTTP2_CANCEL]);
      expect(cutIn).toBeGreaterThanOrEqual(1_000);
      expect(cutIn).toBeLessThan(3_000);
    } finally {
      LateShutdownHold.release();
      session.destroy();
    }
  });
});

onFastify('a mount on HTTP/2 shutting down (no forceCloseConnections) while a body still arrives a byte at a time', () => {
  it.each<[string, http2.Settings, string, number]>([
    ['its client takes the answer: the stream reset after it (NO_ERROR)', {}, 'shutting_down', http2.constants.NGHTTP2_NO_ERROR],
    ['its client keeps its window shut: the answer cut once the delivery grace is over (CANCEL)', { initialWindowSize: 0 }, '', http2.constants.NGHTTP2_CANCEL],
  ])('refuses the read at the shutdown deadline (503 + -32603 shutting_down), and the close completes; %s', async (_case, settings, text, rstCode) => {
    const t = await createTestApp({
      http2: true,
      providers: [EchoTool],
      options: { shutdownGraceMs: 300, bodyReadTimeoutMs: 60_000, bodyReadDeadlineMs: 120_000 },
      appOptions: { forceCloseConnections: false },
    });
    const session = h2Connect(t.server, settings);
    try {
      const body = JSON.stringify(echo('x'.repeat(2000)));
      const headers = { ':method': 'POST', ':path': '/mcp', ...mirroredHeaders(echo()), 'content-length': String(Buffer.byteLength(body)) };
      let sent = 20;
      const answer = h2Request(
        session,
        headers,
        body.slice(0, sent),
        (req) => {
          const drip = setInterval(() => req.writable && sent < body.length && req.write(body[sent++]!), 100);
          req.once('close', () => clearInterval(drip));
        },
        10_000,
      );
      await until(() => t.app.get(ArrivingBodies).held > 0, 'the read to begin');
      const closingAt = Date.now();
      await t.close();
      const closedIn = Date.now() - closingAt;
      const refused = await answer;
      expect([refused.status, refused.rstCode]).toEqual([503, rstCode]);
      if (text) expect(json(refused)).toMatchObject({ error: { code: -32603, data: { reason: text } } });
      else expect(refused.text).toBe(''); // its headers went (not flow-controlled); its body never could
      expect(closedIn).toBeLessThan(3_000);
      expect(t.app.get(ArrivingBodies).held).toBe(0);
    } finally {
      session.destroy();
    }
  });
});

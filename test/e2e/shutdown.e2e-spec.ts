import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

import { describe, expect, it } from '@jest/globals';
import { Injectable, Module, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';

import { McpModule, McpPrompt, McpResourceTemplate, McpTool, type McpContext, type McpPlainTool } from '../../lib/index.js';
import { PendingInputRequests } from '../../lib/mrtr/pending-input-requests.js';
import { ArrivingBodies } from '../../lib/protocol/arriving-bodies.js';
import { MountClosing } from '../../lib/response/mount-closing.js';
import { WaitingAnswers } from '../../lib/response/waiting-answers.js';
import { EchoTool } from '../support/fixture-tools.js';
import { LateShutdownHold, LateShutdownHoldModule } from '../support/late-shutdown-hold.js';
import { legacyHeaders, legacyPost, legacyToolCall } from '../support/legacy-client.js';
import { listen } from '../support/listen.js';
import { MaintenanceInterceptor } from '../support/maintenance-interceptor.js';
import { mirroredHeaders, post, recordEvents, rpc } from '../support/mcp-client.js';
import { meta } from '../support/mcp-client.js';
import { ConfirmDeleteTool } from '../support/mrtr-tools.js';
import { NODE_CLOSES_UNUSED_CONNECTIONS } from '../support/raw-http.js';
import { sseMessages } from '../support/sse.js';
import { SleeperTool, TASK_CAPS, taskRuns } from '../support/task-tools.js';
import { createTestApp, type TestApp, type TestAppSpec } from '../support/test-app.js';
import { until } from '../support/wait.js';

/** A second mount, at `admin/mcp`, serving a tool that asks its client to confirm (a legacy call waits for the answer). */
@Module({
  imports: [McpModule.forRoot({ path: 'admin/mcp', serverInfo: { name: 'admin', version: '1.0.0' }, telemetryLogger: false, legacyInputRequests: { timeoutMs: 30_000 } })],
  providers: [ConfirmDeleteTool],
})
class AdminMount {}

/** Holds the application's shutdown after its first hooks (onModuleDestroy) ran, until released. */
@Injectable()
class HeldShutdown implements BeforeApplicationShutdown {
  static reached = false;
  static release: () => void = () => undefined;
  beforeApplicationShutdown(): Promise<void> {
    HeldShutdown.reached = true;
    return new Promise((resolve) => (HeldShutdown.release = resolve));
  }
}

/** Tells when the application's shutdown began (its first hooks, onModuleDestroy, ran). */
@Injectable()
class ShutdownBegun implements OnModuleDestroy {
  static reached = false;
  onModuleDestroy(): void {
    ShutdownBegun.reached = true;
  }
}

/**
 * One request of the mount over a keep-alive agent: a POST of `body` (`extra` headers added), or a GET without one.
 * Resolves with the status, the Connection header and the body (parsed when JSON).
 */
function keepAliveRequest(
  port: number,
  agent: http.Agent,
  body?: Record<string, unknown>,
  extra: Record<string, string> = {},
  path = '/mcp',
): Promise<{ status: number; connection: string | undefined; body: any }> {
  return new Promise((resolve, reject) => {
    const method = body ? 'POST' : 'GET';
    const headers = body ? { ...mirroredHeaders(body), ...extra } : { accept: 'text/event-stream', ...extra };
    const req = http.request({ host: '127.0.0.1', port, path, method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const json = (res.headers['content-type'] ?? '').startsWith('application/json');
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: json ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/** Reports progress, then rests until released and answers: a stream begun before a shutdown that ends on its own during it. */
@McpTool({ name: 'progress_then_rest', description: 'Reports progress, then rests.', inputSchema: { type: 'object', properties: {} } })
class ProgressThenRestTool implements McpPlainTool {
  static release: () => void = () => undefined;
  async run(_args: unknown, ctx: McpContext) {
    ctx.progress(1, 2, 'started');
    await new Promise<void>((resolve) => (ProgressThenRestTool.release = resolve));
    return 'rested';
  }
}

/** What the never-ending tool's runs saw of their signal. */
const hungRuns: string[] = [];

/** A tool that never settles and ignores its signal (after one progress notification when asked): a hung call. */
@McpTool({ name: 'hang', description: 'Never answers.', inputSchema: { type: 'object', properties: { progress: { type: 'boolean' } } } })
class HangTool implements McpPlainTool {
  run(args: { progress?: boolean }, ctx: McpContext) {
    if (args.progress) ctx.progress(1, 2, 'started');
    hungRuns.push('started');
    ctx.signal.addEventListener('abort', () => hungRuns.push('aborted'), { once: true });
    return new Promise(() => undefined);
  }
}

/** Answers with 32 MiB: more than the socket buffers take, so most of it waits for a client that reads. */
@McpTool({ name: 'big', description: 'Answers with a large text.', inputSchema: { type: 'object', properties: {} } })
class BigTool implements McpPlainTool {
  run(): string {
    return 'x'.repeat(32 * 1024 * 1024);
  }
}

describe('the shutdown deadline (shutdownGraceMs): a call that never ends does not hold the shutdown', () => {
  it.each<[string, { progress?: boolean }]>([
    ['a JSON answer', {}],
    ['a streamed answer (after progress)', { progress: true }],
  ])(
    '%s: ended with 503 + -32603 shutting_down naming the deadline, its signal aborted, and the close done',
    async (_case, args) => {
      hungRuns.length = 0;
      const t = await createTestApp({ providers: [HangTool], options: { shutdownGraceMs: 200 }, appOptions: { forceCloseConnections: false } });
      const body = rpc('tools/call', { name: 'hang', arguments: args, _meta: meta({ progressToken: 'p' }) }, 'hung');
      const call = post(t.server, body).then((res) => res); // supertest sends once awaited: start it now
      await until(() => hungRuns.includes('started'), 'the call to run');
      const started = Date.now();
      await t.close();
      expect(Date.now() - started).toBeLessThan(3_000);
      const res = await call;
      const last = args.progress ? sseMessages(res.text).at(-1) : res.body;
      expect(res.status).toBe(args.progress ? 200 : 503);
      expect(last).toMatchObject({ jsonrpc: '2.0', id: 'hung', error: { code: -32603, data: { reason: 'shutting_down' } } });
      expect(last.error.message).toContain('the call was still running when the shutdown deadline (shutdownGraceMs) passed');
      expect(hungRuns).toEqual(['started', 'aborted']);
    },
    20_000,
  );

  it('waits for a call that arrived during the wait too: it runs to its end within the grace', async () => {
    ShutdownBegun.reached = false;
    const t = await createTestApp({ providers: [SleeperTool, ShutdownBegun], options: { shutdownGraceMs: 5_000 }, appOptions: { forceCloseConnections: false } });
    const call = (tag: string, ms?: number) => post(t.server, rpc('tools/call', { name: 'sleeper', arguments: { ms, tag } }, tag)).then((res) => res);
    const first = call('before-shutdown');
    await until(() => taskRuns.has('before-shutdown'), 'the first call to run');
    const closed = t.close();
    await until(() => ShutdownBegun.reached, 'the shutdown to begin');
    const late = call('during-shutdown', 600);
    // The first call ends only once the late one runs: the wait never found nothing under way in between.
    await until(() => taskRuns.has('during-shutdown'), 'the late call to run');
    taskRuns.get('before-shutdown')!.wake!();
    expect((await first).body.result.content).toEqual([{ type: 'text', text: 'woken' }]);
    const res = await late;
    expect(res.status).toBe(200);
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'slept 600 ms' }]);
    await closed;
  }, 20_000);

  it('cuts off an answer still draining to a client that stopped reading: its written answer does not hold the close', async () => {
    const t = await createTestApp({
      providers: [BigTool],
      options: { shutdownGraceMs: 200, writeStallTimeoutMs: 60_000 },
      appOptions: { forceCloseConnections: false },
    });
    const body = rpc('tools/call', { name: 'big', arguments: {} });
    const answered = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: (t.server.address() as AddressInfo).port, path: '/mcp', method: 'POST', headers: mirroredHeaders(body) }, (res) => {
        res.pause(); // reads nothing more for now: the rest of the answer waits in the server
        resolve(res);
      });
      req.on('error', () => undefined); // the cut-off may reset the connection
      req.end(JSON.stringify(body));
      setTimeout(() => reject(new Error('no answer began')), 10_000).unref();
    });
    expect(answered.statusCode).toBe(200);
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    // Read once the server is closed: what the connection still held arrives, then it ends short of the answer.
    answered.resume();
    await new Promise((resolve) => answered.once('close', resolve));
    expect(answered.complete).toBe(false);
  }, 20_000);

  it('a legacy call: the same error, with 200 as that era reads errors', async () => {
    hungRuns.length = 0;
    const t = await createTestApp({ providers: [HangTool], options: { shutdownGraceMs: 200 }, appOptions: { forceCloseConnections: false } });
    const call = legacyPost(t.server, { jsonrpc: '2.0', id: 'legacy-hung', method: 'tools/call', params: { name: 'hang', arguments: {} } }, legacyHeaders());
    await until(() => hungRuns.includes('started'), 'the call to run');
    await t.close();
    const res = await call;
    expect(res.status).toBe(200);
    expect(res.messages.at(-1)).toMatchObject({ id: 'legacy-hung', error: { code: -32603, data: { reason: 'shutting_down' } } });
  }, 20_000);
});

/** What the handlers that stop by throwing saw: each one's name once it runs, then once its signal aborted. */
const stoppedRuns: string[] = [];

/** Waits for its signal, then throws its reason, as an API handed `ctx.signal` rejects: a handler that stops as asked. */
async function throwOnAbort(name: string, ctx: McpContext): Promise<never> {
  stoppedRuns.push(name);
  await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
  stoppedRuns.push(`${name} aborted`);
  throw ctx.signal.reason;
}

@McpResourceTemplate({ uriTemplate: 'stops://{name}', name: 'stops', mimeType: 'text/plain' })
class StopsResource {
  read(_uri: string, _variables: unknown, ctx: McpContext) {
    return throwOnAbort('read', ctx);
  }
}

@McpPrompt({ name: 'stops', description: 'Stops when told.', arguments: [{ name: 'x', complete: (_value, _context, ctx) => throwOnAbort('complete', ctx) }] })
class StopsPrompt {
  get(_args: unknown, ctx: McpContext) {
    return throwOnAbort('get', ctx);
  }
}

describe('a handler that throws once the shutdown deadline stopped it (the AbortError of an API it handed its signal)', () => {
  it.each([
    ['resources/read', 'read', { uri: 'stops://a' }],
    ['prompts/get', 'get', { name: 'stops' }],
    ['completion/complete', 'complete', { ref: { type: 'ref/prompt', name: 'stops' }, argument: { name: 'x', value: '' } }],
  ])(
    '%s: answered shutting_down, and no mcp:method:error (it stopped as asked, as a tool does)',
    async (method, name, params) => {
      stoppedRuns.length = 0;
      const t = await createTestApp({ providers: [StopsResource, StopsPrompt], options: { shutdownGraceMs: 200 }, appOptions: { forceCloseConnections: false } });
      let res!: Awaited<ReturnType<typeof post>>;
      const events = await recordEvents(['mcp:method:error', 'mcp:request:cancelled'], async () => {
        const call = post(t.server, rpc(method, params, 'stopped')).then((answer) => answer);
        await until(() => stoppedRuns.includes(name), 'the handler to run');
        await t.close();
        res = await call;
        await until(() => stoppedRuns.includes(`${name} aborted`), 'the handler to stop');
        await new Promise((resolve) => setImmediate(resolve)); // its throw reaches the exception filter
      });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ id: 'stopped', error: { code: -32603, data: { reason: 'shutting_down' } } });
      expect(events).toEqual([]);
    },
    20_000,
  );
});

describe('once the mount no longer waits (another shutdown hook still holds the close): the deadline still ends what arrives', () => {
  /** An app whose close is held, after the mount's wait is over, by a later hook; `closed` once released. */
  async function heldPastTheWait(spec: TestAppSpec): Promise<{ t: TestApp; closed: Promise<void>; closingAt: number }> {
    LateShutdownHold.reached = false;
    const t = await createTestApp({ ...spec, imports: [LateShutdownHoldModule], appOptions: { forceCloseConnections: false } });
    const closingAt = Date.now();
    const closed = t.close();
    await until(() => LateShutdownHold.reached, "the mount's wait to be over");
    return { t, closed, closingAt };
  }

  it('a call arriving before the deadline runs, and the deadline ends it: 503 + -32603 shutting_down, its signal aborted', async () => {
    hungRuns.length = 0;
    const { t, closed } = await heldPastTheWait({ providers: [HangTool], options: { shutdownGraceMs: 300 } });
    try {
      const res = await post(t.server, rpc('tools/call', { name: 'hang', arguments: {} }, 'late'));
      expect(res.status).toBe(503);
      expect(res.headers.connection).toBe('close');
      expect(res.body).toMatchObject({ id: 'late', error: { code: -32603, data: { reason: 'shutting_down' } } });
      expect(res.body.error.message).toContain('the call was still running when the shutdown deadline (shutdownGraceMs) passed');
      expect(hungRuns).toEqual(['started', 'aborted']);
    } finally {
      LateShutdownHold.release();
      await closed;
    }
  }, 20_000);

  it.each<[string, number, boolean]>([
    ['a call', 503, false],
    ['a legacy call', 200, true],
  ])(
    '%s arriving after the deadline is refused at once and never run: %s + -32603 shutting_down',
    async (_case, status, legacy) => {
      hungRuns.length = 0;
      const { t, closed, closingAt } = await heldPastTheWait({ providers: [HangTool], options: { shutdownGraceMs: 100 } });
      try {
        await until(() => Date.now() > closingAt + 150, 'the deadline to pass');
        const params = { name: 'hang', arguments: {} };
        const answer = legacy
          ? await legacyPost(t.server, { jsonrpc: '2.0', id: 'after', method: 'tools/call', params }, legacyHeaders()).then((res) => ({
              status: res.status,
              last: res.messages.at(-1),
            }))
          : await post(t.server, rpc('tools/call', params, 'after')).then((res) => ({ status: res.status, last: res.body }));
        expect(answer.status).toBe(status);
        expect(answer.last).toMatchObject({ jsonrpc: '2.0', id: 'after', error: { code: -32603, data: { reason: 'shutting_down' } } });
        expect(answer.last.error.message).toContain('a request arriving after the shutdown deadline (shutdownGraceMs) is not run');
        expect(hungRuns).toEqual([]);
      } finally {
        LateShutdownHold.release();
        await closed;
      }
    },
    20_000,
  );
});

/**
 * A POST over a raw connection whose body arrives a byte every 100 ms (after its first 20 bytes), as long as the
 * connection is open. Reports what came back, and when (epoch ms) the answer began and the connection closed.
 */
function dripUpload(port: number, extra: Record<string, string> = {}): { received: () => string; answeredAt: () => number | undefined; closedAt: () => number | undefined } {
  const body = JSON.stringify(rpc('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(2000) } }, 'drip'));
  const lines = Object.entries({ ...mirroredHeaders(JSON.parse(body)), ...extra, host: 'localhost', 'content-length': String(Buffer.byteLength(body)) });
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let answeredAt: number | undefined;
  let closedAt: number | undefined;
  let sent = 20;
  socket.setEncoding('utf8');
  socket.on('error', () => undefined); // a reset shows as a close without the answer
  socket.write(`POST /mcp HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body.slice(0, sent)}`);
  const drip = setInterval(() => socket.writable && sent < body.length && socket.write(body[sent++]!), 100);
  socket.on('data', (chunk: string) => ((answeredAt ??= Date.now()), (received += chunk)));
  socket.on('close', () => ((closedAt = Date.now()), clearInterval(drip)));
  return { received: () => received, answeredAt: () => answeredAt, closedAt: () => closedAt };
}

/** The JSON body of a raw HTTP/1.1 answer. */
const rawJson = (answer: string): any => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('a body still arriving at the shutdown deadline (an upload dripped a byte at a time) does not hold the shutdown', () => {
  /** Read bounds far past the test's: only the shutdown deadline can end the read. */
  const options = { shutdownGraceMs: 300, bodyReadTimeoutMs: 60_000, bodyReadDeadlineMs: 120_000 };

  it('begun before the close: refused 503 + -32603 shutting_down at the deadline, its lingering close ended by the delivery grace, and the close done', async () => {
    const t = await createTestApp({ providers: [EchoTool], options, appOptions: { forceCloseConnections: false } });
    const upload = dripUpload((t.server.address() as AddressInfo).port);
    await until(() => t.app.get(ArrivingBodies).held > 0, 'the read to begin');
    const closingAt = Date.now();
    await t.close();
    const closedIn = Date.now() - closingAt;
    await until(() => upload.closedAt() !== undefined, 'the connection to close');
    expect(upload.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(upload.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(rawJson(upload.received())).toMatchObject({ jsonrpc: '2.0', error: { code: -32603, data: { reason: 'shutting_down' } } });
    expect(rawJson(upload.received()).error.message).toContain('a request whose body had not arrived in full by the shutdown deadline (shutdownGraceMs) is not run');
    expect(upload.answeredAt()! - closingAt).toBeGreaterThanOrEqual(250);
    expect(upload.answeredAt()! - closingAt).toBeLessThan(1_000);
    // The rest of the body is read and discarded until the delivery grace after the deadline (1 s), not LINGERING_CLOSE.maxMs.
    expect(closedIn).toBeLessThan(3_000);
    expect(t.app.get(ArrivingBodies).held).toBe(0);
  }, 20_000);

  it('begun after the deadline (another hook holds the close): refused at once with the same error, its connection closed within the delivery grace', async () => {
    LateShutdownHold.reached = false;
    const t = await createTestApp({ providers: [EchoTool], imports: [LateShutdownHoldModule], options, appOptions: { forceCloseConnections: false } });
    const closingAt = Date.now();
    const closed = t.close();
    try {
      await until(() => LateShutdownHold.reached && t.app.get(MountClosing).pastDeadline, 'the deadline to pass');
      const startedAt = Date.now();
      const upload = dripUpload((t.server.address() as AddressInfo).port);
      await until(() => upload.closedAt() !== undefined, 'the connection to close', 5_000);
      expect(upload.received()).toMatch(/^HTTP\/1\.1 503 /);
      expect(rawJson(upload.received())).toMatchObject({ error: { code: -32603, data: { reason: 'shutting_down' } } });
      expect(upload.answeredAt()! - startedAt).toBeLessThan(1_000);
      expect(upload.closedAt()! - startedAt).toBeLessThan(2_500);
      expect(closingAt).toBeLessThan(startedAt);
    } finally {
      LateShutdownHold.release();
      await closed;
    }
  }, 20_000);
});

describe('a refused upload still arriving when shutdown begins (its lingering close began before) does not hold the shutdown', () => {
  it.each([
    ['answered keep-alive (the rest of the body bounded)', {}],
    ['answered Connection: close (the answer ends after the body)', { connection: 'close' }],
  ])(
    '%s: its lingering close ends with the delivery grace after the deadline, not LINGERING_CLOSE.maxMs',
    async (_case, extra) => {
      const t = await createTestApp({ providers: [EchoTool], options: { shutdownGraceMs: 300 }, appOptions: { forceCloseConnections: false } });
      const upload = dripUpload((t.server.address() as AddressInfo).port, { ...extra, origin: 'http://evil.example' });
      await until(() => upload.answeredAt() !== undefined, 'the refusal');
      expect(upload.received()).toMatch(/^HTTP\/1\.1 403 /);
      const closingAt = Date.now();
      await t.close();
      // The deadline (300 ms), then the delivery grace (1 s): a byte every 100 ms would hold it for 30 s.
      expect(Date.now() - closingAt).toBeLessThan(3_000);
      await until(() => upload.closedAt() !== undefined, 'the connection to close');
      expect(rawJson(upload.received())).toMatchObject({ error: { code: -32600 } });
    },
    20_000,
  );
});

describe('a refusal sent during shutdown to a client that does not read it (a 24 MB id echoed)', () => {
  it('is cut once the delivery grace after the deadline is over, not after writeStallTimeoutMs', async () => {
    LateShutdownHold.reached = false;
    const t = await createTestApp({
      providers: [EchoTool],
      imports: [LateShutdownHoldModule],
      // A deadline the 24 MB upload beats on a loaded machine (one arriving after it is refused without its id).
      options: { shutdownGraceMs: 4_000, writeStallTimeoutMs: 60_000, maxBodyBytes: 32 * 1024 * 1024 },
      appOptions: { forceCloseConnections: false },
    });
    const port = (t.server.address() as AddressInfo).port;
    const closingAt = Date.now();
    const closed = t.close();
    try {
      await until(() => LateShutdownHold.reached, "the mount's wait to be over");
      // Header binding refuses it (its Mcp-Method names another method), echoing its id: more than the socket buffers take.
      const body = JSON.stringify(rpc('tools/list', {}, 'x'.repeat(24 * 1024 * 1024)));
      const headers = { ...mirroredHeaders(JSON.parse(body)), 'mcp-method': 'prompts/list', host: 'localhost', 'content-length': String(Buffer.byteLength(body)) };
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.pause(); // reads nothing, so it never sees the server's close either
      socket.write(
        `POST /mcp HTTP/1.1\r\n${Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('')}\r\n`,
      );
      socket.write(body);
      await until(() => t.app.get(WaitingAnswers).held > 0, 'the refusal to wait for its client', 10_000);
      LateShutdownHold.release(); // the server's close now waits for that connection alone
      await closed;
      // The deadline (4 s), then the delivery grace (1 s): not the 60 s stall bound.
      expect(Date.now() - closingAt).toBeLessThan(10_000);
      await until(() => t.app.get(WaitingAnswers).held === 0, 'the refusal to be let go', 1_000);
      socket.destroy();
    } finally {
      LateShutdownHold.release();
      await closed;
    }
  }, 30_000);
});

describe('a connection carrying no request when shutdown begins does not hold the shutdown (Node stops its header timeouts on close)', () => {
  it.each([
    ['one its client sent nothing on', ''],
    ["one its client sent part of a request's headers on", 'POST /mcp HTTP/1.1\r\nHost: localhost\r\n'],
  ])(
    '%s: cut once the delivery grace after the deadline is over',
    async (_case, sent) => {
      const t = await createTestApp({ providers: [EchoTool], options: { shutdownGraceMs: 300 }, appOptions: { forceCloseConnections: false } });
      const socket = net.connect((t.server.address() as AddressInfo).port, '127.0.0.1');
      socket.on('error', () => undefined);
      const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(sent);
      const closingAt = Date.now();
      await t.close();
      // The deadline (300 ms), then the delivery grace (1 s): before, the close waited for the client for ever.
      expect(Date.now() - closingAt).toBeLessThan(3_000);
      const closedAfter = (await closed) - closingAt;
      // From Node 26.4 the server's own close() closes such a connection at once; before, the mount's cut does.
      if (!NODE_CLOSES_UNUSED_CONNECTIONS) expect(closedAfter).toBeGreaterThanOrEqual(1_200);
    },
    20_000,
  );
});

describe('shutdown (app.close(), or a signal with enableShutdownHooks())', () => {
  it("ends the listen streams and waiting legacy calls of every mount as it begins, while another mount's wait still holds", async () => {
    hungRuns.length = 0;
    const t = await createTestApp({ providers: [HangTool], imports: [AdminMount], options: { shutdownGraceMs: 3_000 }, appOptions: { forceCloseConnections: false } });
    const hung = post(t.server, rpc('tools/call', { name: 'hang', arguments: {} }, 'hung')).then((res) => res);
    await until(() => hungRuns.includes('started'), 'the call to run');
    const admin = await listen(t.server, { toolsListChanged: true }, 'admin-listen', {}, '/admin/mcp');
    let asked = false;
    const waiting = legacyToolCall(t.server, 'confirm_delete', { file: 'notes.txt' }, () => ((asked = true), 'no-answer'), { path: '/admin/mcp' });
    await until(() => asked, 'the input request');
    const at = Date.now();
    const closed = t.close();
    await admin.ended;
    const { messages } = await waiting;
    const endedIn = Date.now() - at;
    // Both ended long before the deadline that ends the hung call on the other mount.
    expect(endedIn).toBeLessThan(1_500);
    expect(admin.messages.at(-1)).toMatchObject({ id: 'admin-listen', result: { resultType: 'complete' } });
    expect(messages.at(-1)).toMatchObject({ id: 'call-confirm_delete', error: { code: -32603, data: { reason: 'shutting_down' } } });
    expect(messages.at(-1)!.error.message).toContain('the input request is withdrawn before its answer came');
    expect((await hung).body).toMatchObject({ id: 'hung', error: { data: { reason: 'shutting_down' } } });
    await closed;
  }, 20_000);

  it('ends a legacy call waiting for its client to answer an input request: close does not wait for the answer, the call ends shutting_down', async () => {
    const t = await createTestApp({
      providers: [ConfirmDeleteTool],
      options: { legacyInputRequests: { timeoutMs: 30_000 } },
      appOptions: { forceCloseConnections: false }, // the server's close waits for this connection
    });
    let asked = false;
    const call = legacyToolCall(t.server, 'confirm_delete', { file: 'notes.txt' }, () => ((asked = true), 'no-answer'));
    await until(() => asked, 'the input request');
    expect(t.app.get(PendingInputRequests).size).toBe(1);
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    const { messages } = await call;
    expect(messages.at(-1)).toMatchObject({ jsonrpc: '2.0', id: 'call-confirm_delete', error: { code: -32603, data: { reason: 'shutting_down' } } });
    expect(messages.at(-1)!.error.message).toMatch(/^Internal error: the server is shutting down, so the input request is withdrawn before its answer came; /);
  }, 20_000);

  it('closes each connection after its answer once shutdown began, and starts no task then (503 shutting_down)', async () => {
    HeldShutdown.reached = false;
    const t = await createTestApp({
      providers: [EchoTool, SleeperTool, HeldShutdown],
      configure: (app) => app.useGlobalInterceptors(new MaintenanceInterceptor()),
      appOptions: { forceCloseConnections: false },
    });
    const port = (t.server.address() as AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    try {
      const before = await keepAliveRequest(port, agent, rpc('tools/call', { name: 'echo', arguments: { text: 'before' } }));
      expect(before.connection).toBe('keep-alive');
      const inFlight = keepAliveRequest(port, agent, rpc('tools/call', { name: 'sleeper', arguments: { tag: 'in-flight-at-shutdown' } }));
      await until(() => taskRuns.has('in-flight-at-shutdown'), 'the call to run');
      const closed = t.close();
      await until(() => HeldShutdown.reached, 'the shutdown to begin');
      taskRuns.get('in-flight-at-shutdown')!.wake!();
      // A call under way when shutdown began runs to its end, and its answer closes its connection.
      expect(await inFlight).toMatchObject({ status: 200, connection: 'close', body: { result: { content: [{ text: 'woken' }] } } });
      const during = await keepAliveRequest(port, agent, rpc('tools/call', { name: 'echo', arguments: { text: 'during' } }));
      expect(during).toMatchObject({ status: 200, connection: 'close' });
      const refused = await keepAliveRequest(port, agent, rpc('tools/list'), { origin: 'http://evil.example.com' });
      expect(refused).toMatchObject({ status: 403, connection: 'close', body: { error: { code: -32600 } } });
      const notAllowed = await keepAliveRequest(port, agent);
      expect(notAllowed).toMatchObject({ status: 405, connection: 'close', body: { error: { code: -32600 } } });
      const below = await keepAliveRequest(port, agent, rpc('tools/list'), {}, '/mcp/below');
      expect(below).toMatchObject({ status: 404, connection: 'close', body: 'Not Found\n' });
      const note = await keepAliveRequest(port, agent, { jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(note).toMatchObject({ status: 202, connection: 'close' });
      // A host interceptor answered in the mount's stead: the mount's answer for it closes its connection too.
      const unanswered = await keepAliveRequest(port, agent, rpc('tools/list'), { 'x-maintenance': '1' });
      expect(unanswered).toMatchObject({ status: 500, connection: 'close', body: { error: { code: -32603 } } });
      const task = await keepAliveRequest(
        port,
        agent,
        rpc('tools/call', { name: 'sleeper', arguments: { ms: 10, tag: 'task-at-shutdown' }, _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS }) }),
      );
      expect(task).toMatchObject({ status: 503, connection: 'close', body: { error: { code: -32603, data: { reason: 'shutting_down' } } } });
      expect(taskRuns.has('task-at-shutdown')).toBe(false);
      HeldShutdown.release();
      await closed;
    } finally {
      HeldShutdown.release();
      agent.destroy();
    }
  }, 20_000);

  describe('a stream that ends during shutdown: a keep-alive client reusing its connection at once is answered, not reset', () => {
    /** Runs `first` on one raw keep-alive connection; once `shutdownAt` shows in it, closes the app; then reuses the connection as soon as the stream ends. */
    async function reuseAfterShutdownEnds(t: TestApp, first: Record<string, unknown>, headers: Record<string, string>, shutdownAt: string) {
      const socket = net.connect((t.server.address() as AddressInfo).port, '127.0.0.1');
      let received = '';
      let ended = false;
      let streamEnded = -1;
      socket.setEncoding('utf8');
      socket.on('error', () => undefined); // a reset shows as no second answer
      socket.on('close', () => (ended = true));
      const send = (body: Record<string, unknown>, extra: Record<string, string>) => {
        const text = JSON.stringify(body);
        const lines = Object.entries({ ...extra, host: 'localhost', connection: 'keep-alive', 'content-length': String(Buffer.byteLength(text)) });
        socket.write(`POST /mcp HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${text}`);
      };
      const next = rpc('tools/call', { name: 'echo', arguments: { text: 'next' } }, 'next');
      socket.on('data', (chunk: string) => {
        received += chunk;
        // As a pooling client does: the stream's last chunk came, so the connection is free for the next request.
        if (streamEnded < 0 && received.includes('\r\n0\r\n\r\n')) {
          streamEnded = received.length;
          send(next, mirroredHeaders(next));
        }
      });
      try {
        send(first, headers);
        await until(() => received.includes(shutdownAt), shutdownAt);
        expect(received).toMatch(/\r\nconnection: keep-alive\r\n/i);
        const closed = t.close();
        await until(() => t.app.get(MountClosing).closing, 'the shutdown to begin');
        ProgressThenRestTool.release(); // the streamed call ends once shutdown began, never before
        await until(() => ended, 'the connection to close', 5_000);
        await closed;
        return { stream: received.slice(0, streamEnded), after: received.slice(streamEnded) };
      } finally {
        socket.destroy();
      }
    }

    const listen = rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, 'early');
    const legacyCall = { jsonrpc: '2.0', id: 'legacy', method: 'tools/call', params: { name: 'confirm_delete', arguments: { file: 'notes.txt' } } };
    const progressCall = rpc('tools/call', { name: 'progress_then_rest', arguments: {}, _meta: meta({ progressToken: 'p' }) }, 'streamed');
    it.each<[string, TestAppSpec, Record<string, unknown>, Record<string, string>, string, string]>([
      // [case, the app, the streamed request and its headers, what shows it under way, what its end carries]
      [
        'a listen stream',
        { providers: [EchoTool], options: { subscriptions: { keepAliveMs: 60_000 } } },
        listen,
        mirroredHeaders(listen),
        'notifications/subscriptions/acknowledged',
        '"id":"early"',
      ],
      [
        'a legacy call waiting for its input request',
        { providers: [EchoTool, ConfirmDeleteTool], options: { legacyInputRequests: { timeoutMs: 30_000 } } },
        legacyCall,
        legacyHeaders(),
        'elicitation/create',
        'shutting_down',
      ],
      [
        'a call streaming progress that ends on its own',
        { providers: [EchoTool, ProgressThenRestTool] },
        progressCall,
        mirroredHeaders(progressCall),
        'notifications/progress',
        '"id":"streamed"',
      ],
    ])('%s', async (_case, spec, first, headers, shutdownAt, ending) => {
      const t = await createTestApp(spec);
      const { stream, after } = await reuseAfterShutdownEnds(t, first, headers, shutdownAt);
      expect(stream).toContain(ending);
      expect(after).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(after).toMatch(/\r\nconnection: close\r\n/i);
      expect(after).toContain('"id":"next"');
    });
  });

  it('acknowledges a listen request that arrives once shutdown began, then ends it at once with its result', async () => {
    HeldShutdown.reached = false;
    const t = await createTestApp({ providers: [EchoTool, HeldShutdown], options: { subscriptions: { keepAliveMs: 60_000 } } });
    try {
      const closed = t.close();
      await until(() => HeldShutdown.reached, 'the shutdown to begin');
      const l = await listen(t.server, { toolsListChanged: true }, 'late');
      // Ended while the shutdown is still held: nothing but its own start ended it.
      let ended = false;
      void l.ended.then(() => (ended = true));
      await until(() => ended, 'the stream to end', 2_000);
      expect(l.messages.map((m) => m.method ?? 'response')).toEqual(['notifications/subscriptions/acknowledged', 'response']);
      expect(l.messages.at(-1)).toMatchObject({ id: 'late', result: { resultType: 'complete' } });
      expect(l.headers.connection).toBe('close'); // its stream's headers said so as they went
      HeldShutdown.release();
      await closed;
    } finally {
      HeldShutdown.release();
    }
  }, 20_000);
});

// Slow and broken clients over raw sockets against the sample app: bodies dripped a byte at a time, clients that
// drop mid-body or mid-stream, many slow clients beside a normal one, clients that never read their answer.
// Bounds are generous: these tests assert what is answered and freed, never how fast.
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';

import { MCP_MODULE_OPTIONS } from '../../lib/mcp.module-definition.js';
import { MCP_MOUNT_PATH, MCP_OPTIONS } from '../../lib/options/mcp-options.tokens.js';
import { resolveOptions } from '../../lib/options/resolve-options.js';
import { AppModule } from '../../sample/src/app.module.js';
import { recordEvents, rpc } from '../support/mcp-client.js';
import { callTool, toolCall } from '../support/mrtr-client.js';
import { headerOf, parseAnswer, type WireAnswer } from '../support/raw-exchange.js';
import { portOf } from '../support/raw-http.js';
import { fastifyAdapter, TEST_ADAPTER, type TestApp } from '../support/test-app.js';
import { nextEvent, until } from '../support/wait.js';
import { conformingHeaders } from './arbitraries.js';
import { caseBytes, listedTools } from './fuzz-support.js';

/**
 * Short bounds, so a stalled read or write ends within a test: no byte of a body for 500 ms (250 ms once read a
 * 15 ms drip as stalled under a loaded CI run), of an answer for 500 ms.
 */
const BOUNDS = { bodyReadTimeoutMs: 500, writeStallTimeoutMs: 500 };

/** The sample app with its resolved module options adjusted (`writeStallTimeoutMs`: the bound on a client that stops reading). */
async function startSample(bounds: Record<string, number>): Promise<TestApp> {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(MCP_OPTIONS)
    .useFactory({ factory: (raw: unknown, path: string) => ({ ...resolveOptions(raw, path), ...bounds }), inject: [MCP_MODULE_OPTIONS, MCP_MOUNT_PATH] })
    .compile();
  const options = { logger: false as const, forceCloseConnections: true };
  const app = TEST_ADAPTER === 'fastify' ? moduleRef.createNestApplication(fastifyAdapter(options.forceCloseConnections), options) : moduleRef.createNestApplication(options);
  await app.listen(0, '127.0.0.1');
  return { app, server: app.getHttpServer() as Server, close: () => app.close() };
}

/** A raw client: its socket, everything received, and whether the server closed the connection. */
interface RawClient {
  socket: Socket;
  received: () => Buffer;
  closed: Promise<void>;
}

/** Connects; `paused`: a client that never reads (the kernel buffers fill, then the server holds the rest). */
async function open(server: Server, paused = false): Promise<RawClient> {
  const socket = connect(portOf(server), '127.0.0.1');
  const chunks: Buffer[] = [];
  if (paused) socket.pause();
  else socket.on('data', (chunk) => chunks.push(chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, received: () => Buffer.concat(chunks), closed };
}

/** The bytes of a conforming request for a body; `keepAlive`: a client asking to keep the connection (else it asks to close it). */
const requestOf = (body: Record<string, unknown>, keepAlive = false) =>
  caseBytes({ headers: [...conformingHeaders(body), ...(keepAlive ? [['Connection', 'keep-alive'] as [string, string]] : [])], body: Buffer.from(JSON.stringify(body)) });

/** Writes the head at once, then the body one byte every `gapMs`, `stopAfter` bytes at most; resolves once written. */
async function drip(client: RawClient, bytes: Buffer, gapMs: number, stopAfter = Infinity): Promise<void> {
  const bodyAt = bytes.indexOf('\r\n\r\n') + 4;
  client.socket.write(bytes.subarray(0, bodyAt));
  for (let i = bodyAt; i < bytes.length && i - bodyAt < stopAfter; i++) {
    await sleep(gapMs);
    if (client.socket.destroyed) return;
    client.socket.write(bytes.subarray(i, i + 1));
  }
}

/** Resolves with `promise`, or rejects naming `what` after `ms`: a generous bound, so a hang fails with a reason. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The server side of each connection, by the client's port: what the server holds for a client. */
function serverSockets(server: Server): Map<number, Socket> {
  const sockets = new Map<number, Socket>();
  server.on('connection', (socket: Socket) => sockets.set(socket.remotePort!, socket));
  return sockets;
}

/** Resolves with the answer once all of it (by its framing) has arrived. */
async function answered(client: RawClient): Promise<WireAnswer> {
  for (;;) {
    try {
      return parseAnswer(client.received());
    } catch {
      await sleep(25);
    }
  }
}

const LIST = () => rpc('tools/list');

describe('slow and broken clients', () => {
  let t: TestApp;
  let tools: string[];
  let held: Map<number, Socket>;
  beforeAll(async () => {
    t = await startSample(BOUNDS);
    held = serverSockets(t.server);
    tools = await listedTools(t.server);
  });
  afterAll(() => t?.close());

  /** tools/list answered correctly: 200, the sample's tools. */
  const expectToolList = (raw: Buffer) => {
    const answer = parseAnswer(raw);
    expect({ status: answer.status, tools: JSON.parse(answer.body.toString()).result?.tools?.map((tool: { name: string }) => tool.name) }).toEqual({ status: 200, tools });
  };

  it('answers a body dripped a byte at a time, each byte within the read timeout, the whole body within the deadline', async () => {
    const client = await open(t.server);
    const bytes = requestOf(LIST());
    const started = Date.now();
    await drip(client, bytes, 15);
    await within(10_000, 'the answer to the dripped body', client.closed);
    expect(Date.now() - started).toBeGreaterThan(BOUNDS.bodyReadTimeoutMs * 4); // the whole drip outlasted the read timeout
    expectToolList(client.received());
  }, 30_000);

  it.each([
    ['after its first bytes', 20],
    ['before its first byte (the read timeout runs from the start of the read)', 0],
  ])(
    'refuses a body that stops arriving %s with 408 (the table) once the read timeout passes',
    async (_when, sent) => {
      const client = await open(t.server);
      await drip(client, requestOf(LIST(), true), 10, sent);
      const answer = await within(10_000, 'the 408 to a stalled body', answered(client));
      client.socket.destroy();
      expect({ status: answer.status, error: JSON.parse(answer.body.toString()).error, connection: headerOf(answer, 'connection') }).toEqual({
        status: 408,
        error: { code: -32600, message: `Request timeout: no byte of the body arrived for ${BOUNDS.bodyReadTimeoutMs} ms.` },
        connection: 'close',
      });
    },
    30_000,
  );

  it('frees a connection whose client drops mid-body, with no fault, and keeps serving', async () => {
    const events = await recordEvents(['mcp:method:error', 'mcp:tool:start'], async () => {
      const client = await open(t.server);
      await drip(client, requestOf(toolCall('echo', { text: 'x'.repeat(5_000) })), 1, 40);
      const port = client.socket.localPort!;
      client.socket.destroy();
      await until(() => held.get(port)?.destroyed === true, 'the server to close the dropped connection', 10_000);
      expect(held.get(port)?.destroyed).toBe(true);
    });
    expect(events).toEqual([]);
    expectToolList(await toolsListOver(t.server));
  }, 30_000);

  it('cancels a progress stream whose client drops after the first event, and keeps serving', async () => {
    const events = await recordEvents(['mcp:request:cancelled', 'mcp:method:error'], async () => {
      const client = await open(t.server);
      client.socket.write(requestOf(toolCall('reindex_notes', {}, { meta: { progressToken: 'drop-me' } })));
      await until(() => client.received().includes('notifications/progress'), 'the first progress event', 10_000);
      expect(client.received().includes('notifications/progress')).toBe(true);
      const cancelled = nextEvent('mcp:request:cancelled');
      client.socket.destroy();
      await within(10_000, 'the cancellation', cancelled);
    });
    expect(events.map((e) => e.channel)).toEqual(['mcp:request:cancelled']);
    expect(events[0]!.message).toEqual({ mount: '/mcp', method: 'tools/call', id: expect.any(Number), by: 'close' });
    expectToolList(await toolsListOver(t.server));
  }, 30_000);

  it('answers a normal client correctly while 20 clients drip their bodies, and then answers them all', async () => {
    const drippers = await Promise.all(Array.from({ length: 20 }, () => open(t.server)));
    let dripping = drippers.length;
    const dripped = Promise.all(drippers.map((client) => drip(client, requestOf(LIST()), 10).then(() => client.closed.then(() => dripping--))));
    await sleep(100);
    for (const text of ['one', 'two', 'three', 'four', 'five']) {
      const res = await callTool(t.server, 'echo', { text });
      expect({ status: res.status, content: res.body.result?.content }).toEqual({ status: 200, content: [{ type: 'text', text }] });
    }
    expect(dripping).toBe(drippers.length); // the normal client did not wait for the slow ones
    await within(30_000, 'the dripped bodies', dripped);
    for (const client of drippers) expectToolList(client.received());
  }, 60_000);

  it('disconnects clients that never read a large answer (JSON or SSE) while a normal client is served', async () => {
    // Three stored 3 MB tasks make tasks/list a 9 MB answer; a 3 MB progress token, a 3 MB SSE event.
    for (let i = 0; i < 3; i++) expect((await callTool(t.server, 'tasks', { action: 'create', data: { title: `${i}`.repeat(3_000_000) } })).status).toBe(200);
    const requests = [
      ...Array.from({ length: 5 }, () => toolCall('tasks', { action: 'list', data: { limit: 100 } })),
      toolCall('reindex_notes', {}, { meta: { progressToken: 'p'.repeat(3_000_000) } }),
    ];
    const readers = await Promise.all(requests.map(() => open(t.server, true)));
    readers.forEach((client, i) => client.socket.write(requestOf(requests[i]!)));
    const sides = readers.map(({ socket }) => socket.localPort!).map((port) => () => held.get(port));
    const res = await callTool(t.server, 'echo', { text: 'still here' });
    expect(res.body.result?.content).toEqual([{ type: 'text', text: 'still here' }]);
    // Each answer outgrows what loopback buffers absorb: the server holds the rest until it closes the connection.
    const closed = () => sides.map((side) => side()?.destroyed === true);
    await until(() => closed().every(Boolean), 'the server to close every connection it could not write to', 10_000);
    expect(closed()).toEqual(readers.map(() => true));
    for (const client of readers) client.socket.destroy();
  }, 60_000);
});

/** tools/list over a fresh raw connection: what the server wrote. */
async function toolsListOver(server: Server): Promise<Buffer> {
  const client = await open(server);
  client.socket.write(requestOf(LIST()));
  await within(10_000, 'tools/list', client.closed);
  return client.received();
}

/** The head of a POST the Origin check refuses (403) before its body is read, declaring `length` body bytes. */
const refusedHead = (port: number, framing: string) =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: https://elsewhere.example\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;

describe('slow clients past the bounds of the whole body', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startSample({ ...BOUNDS, bodyReadDeadlineMs: 1000 });
    // Fastify's: Node's 5 s would close an idle connection after a refusal as the lingering read does.
    t.server.keepAliveTimeout = 72_000;
  });
  afterAll(() => t?.close());

  it('refuses a body dripped steadily (each byte within the read timeout) that is not all there by the deadline: 408, connection closed', async () => {
    const client = await open(t.server);
    void drip(client, requestOf(LIST(), true), 50, 30); // 1.5 s of bytes, then nothing
    const answer = await within(10_000, 'the 408 to a body past its deadline', answered(client));
    expect({ status: answer.status, error: JSON.parse(answer.body.toString()).error }).toEqual({
      status: 408,
      error: { code: -32600, message: 'Request timeout: the body did not arrive in full within 1000 ms.' },
    });
    expect(headerOf(answer, 'connection')).toBe('close');
    await within(15_000, 'the connection closed', client.closed);
  }, 30_000);

  it.each([
    ['Content-Length: 100000', '{"jsonrpc":'],
    ['Transfer-Encoding: chunked', '186a0\r\n{"jsonrpc":'],
  ])(
    'a refusal sent before the body is read (an Origin not allowed) closes the connection once the rest stops coming: not left to the host (%s)',
    async (framing, start) => {
      const client = await open(t.server);
      client.socket.write(`${refusedHead(portOf(t.server), framing)}${start}`);
      const answer = await within(10_000, 'the 403', answered(client));
      expect(answer.status).toBe(403);
      // The client sends no more: the rest of the body is bounded by the lingering read's idle bound (its bounds:
      // test/response/lingering-close.spec.ts).
      await within(15_000, 'the connection closed after the refusal', client.closed);
    },
    30_000,
  );

  it('a refusal whose body came with its headers keeps the connection: a request pipelined after it is answered', async () => {
    const client = await open(t.server);
    const refusedBody = JSON.stringify(LIST());
    client.socket.write(
      Buffer.concat([Buffer.from(`${refusedHead(portOf(t.server), `Content-Length: ${Buffer.byteLength(refusedBody)}`)}${refusedBody}`), requestOf(LIST())]),
    );
    await until(() => client.received().toString().includes('"tools"'), 'both answers', 10_000);
    const text = client.received().toString();
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 403', 'HTTP/1.1 200']);
    expect(text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase()).toContain('connection: keep-alive'); // the 403's head
    client.socket.destroy();
  }, 30_000);
});

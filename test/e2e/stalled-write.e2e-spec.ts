import diagnosticsChannel from 'node:diagnostics_channel';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { McpEventBus, McpTool, type McpHandlerContext, type McpPlainTool } from '../../lib/index.js';
import { WaitingAnswers } from '../../lib/response/waiting-answers.js';
import { XResource } from '../resources/fixture-resources.js';
import { EchoTool } from '../support/fixture-tools.js';
import { mirroredHeaders, recordEvents, rpc } from '../support/mcp-client.js';
import { callAndNeverRead, pipelineAndNeverRead } from '../support/raw-http.js';
import { SleeperTool } from '../support/task-tools.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until, nextEvent } from '../support/wait.js';

/** More than loopback socket buffers absorb, so most of it waits in the process for the client to read. */
const ANSWER_CHARS = 24 * 1024 * 1024;
const STALL_MS = 1000;

@McpTool({ name: 'big', description: 'Answers with a large text.', inputSchema: { type: 'object', properties: {} } })
class BigTool implements McpPlainTool {
  /** The signal of the last call, read after its answer was cut off. */
  static signal: AbortSignal | undefined;
  run(_args: unknown, ctx: McpHandlerContext): string {
    BigTool.signal = ctx.signal;
    return 'x'.repeat(ANSWER_CHARS);
  }
}

describe('a client that stops reading its answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [BigTool], options: { writeStallTimeoutMs: STALL_MS } });
  });
  afterAll(() => t.close());

  it('is disconnected once it took nothing for writeStallTimeoutMs, counted in telemetry, its answer cut off; the call it answered stays uncancelled', async () => {
    let received = 0;
    const stalled = nextEvent('mcp:answer:stalled', 10_000);
    const socket = await callAndNeverRead(t.server, rpc('tools/call', { name: 'big', arguments: {} }, 1));
    const event = await stalled;
    expect(event).toEqual({ mount: '/mcp', method: 'tools/call', waitingBytes: expect.any(Number), bound: 'writeStallTimeoutMs' });
    // What waited counts the answer its writer held back as well as what was queued (about one chunk): all of it but
    // what the kernel's buffers took (a few MB on loopback).
    expect(event.waitingBytes).toBeGreaterThan(ANSWER_CHARS / 2);
    expect(event.waitingBytes).toBeLessThan(ANSWER_CHARS + 1024);
    // The final answer was given before the cut: the tool's signal aborts only for a stream ended before it.
    expect(BigTool.signal?.aborted).toBe(false);
    // Reading now drains only what the kernel had taken before the server closed: the answer never completes.
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.on('error', () => undefined);
    socket.resume();
    await once(socket, 'close');
    expect(received).toBeLessThan(ANSWER_CHARS);
  }, 20_000);

  it('is disconnected from a refusal it does not take within writeStallTimeoutMs, which counts among the waiting answers meanwhile', async () => {
    // Refused before the handler (no _meta: 400 + -32602), the answer echoes the request's id: as long as the client
    // made it, and past what loopback socket buffers absorb.
    const own = await createTestApp({ providers: [BigTool], options: { writeStallTimeoutMs: STALL_MS, maxBodyBytes: 2 * ANSWER_CHARS } });
    try {
      const id = 'i'.repeat(ANSWER_CHARS);
      const waiting = own.app.get(WaitingAnswers, { strict: false });
      const socket = await callAndNeverRead(own.server, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'big', arguments: {} } });
      await until(() => waiting.held > 0, 'the refusal counted', 5_000);
      expect(waiting.held).toBeGreaterThan(id.length / 2);
      // Cut once STALL_MS passed with the answer not taken whole: no longer counted.
      await until(() => waiting.held === 0, 'the refusal cut', 5 * STALL_MS);
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      socket.resume();
      await once(socket, 'close');
      expect(received).toBeLessThan(id.length);
    } finally {
      await own.close();
    }
  }, 20_000);

  it('is cut writeStallTimeoutMs after the last byte it took, not a whole check later', async () => {
    const stallMs = 2000;
    const own = await createTestApp({ providers: [BigTool], options: { writeStallTimeoutMs: stallMs } });
    try {
      const stalled = nextEvent('mcp:answer:stalled', 10_000);
      const sent = performance.now();
      const socket = await callAndNeverRead(own.server, rpc('tools/call', { name: 'big', arguments: {} }, 1));
      socket.on('error', () => undefined);
      await stalled;
      // The kernel takes its buffers' worth at once; from then on nothing: the cut comes stallMs after that, plus
      // at most two looks (a quarter of stallMs), where a check once per stallMs cut only at the second check.
      const elapsed = performance.now() - sent;
      expect(elapsed).toBeGreaterThanOrEqual(stallMs);
      expect(elapsed).toBeLessThan(1.75 * stallMs);
      socket.destroy();
    } finally {
      await own.close();
    }
  }, 20_000);

  it('gets the whole answer when it reads slowly but keeps reading', async () => {
    // Its own server, with a longer stall limit: reader and server share this process, so an event loop held up past
    // the limit (a loaded machine) can fire the stall check before the reader's next read, however steady it is.
    const own = await createTestApp({ providers: [BigTool], options: { writeStallTimeoutMs: 5 * STALL_MS } });
    const socket = await callAndNeverRead(own.server, rpc('tools/call', { name: 'big', arguments: {} }, 1));
    try {
      let received = 0;
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // A slow reader: pauses after every chunk it reads (a few MB/s in all), far more often than the limit.
        socket.pause();
        setTimeout(() => socket.resume(), 20);
      });
      socket.resume();
      await until(
        () => received > ANSWER_CHARS,
        'the whole answer',
        25_000,
        () => socket.destroyed,
      );
      expect(received).toBeGreaterThan(ANSWER_CHARS);
    } finally {
      socket.destroy();
      await own.close();
    }
  }, 30_000);
});

describe('answers waiting for their clients together, past maxWaitingBytes', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Each answer alone is past the bound, so a new one makes room by cutting every other waiting; the stall limit is
    // far off, so only the bound cuts.
    t = await createTestApp({ providers: [BigTool], options: { writeStallTimeoutMs: 60_000, maxWaitingBytes: 1024 * 1024 } });
  });
  afterAll(() => t.close());

  it('cut off to make room for a new answer (mcp:answer:stalled, bound maxWaitingBytes), never the new one, whose client reads it whole', async () => {
    const sockets: Socket[] = [];
    const cuts: { waitingBytes: number; bound: string }[] = [];
    const heard = (message: unknown) => cuts.push(message as (typeof cuts)[number]);
    diagnosticsChannel.subscribe('mcp:answer:stalled', heard);
    try {
      for (let i = 0; i < 3; i++) {
        const stopped = nextEvent('mcp:tool:stop', 10_000);
        sockets.push(await callAndNeverRead(t.server, rpc('tools/call', { name: 'big', arguments: {} }, i)));
        await stopped;
        // Written once the tool stopped: counting it cuts the one before (none for the first).
        await until(() => cuts.length === i, `${i} answers cut`, 5_000);
      }
      expect(cuts).toEqual([
        { mount: '/mcp', method: 'tools/call', waitingBytes: expect.any(Number), bound: 'maxWaitingBytes' },
        { mount: '/mcp', method: 'tools/call', waitingBytes: expect.any(Number), bound: 'maxWaitingBytes' },
      ]);
      for (const cut of cuts) expect(cut.waitingBytes).toBeGreaterThan(ANSWER_CHARS / 2);
      const received = sockets.map(() => 0);
      sockets.forEach((socket, i) => {
        socket.on('data', (chunk: Buffer) => (received[i]! += chunk.length));
        socket.resume();
      });
      // The two cut ones end short of their answers; the newest is read whole.
      await Promise.all(sockets.slice(0, 2).map((socket) => (socket.closed ? undefined : once(socket, 'close'))));
      expect(received[0]).toBeLessThan(ANSWER_CHARS);
      expect(received[1]).toBeLessThan(ANSWER_CHARS);
      await until(
        () => received[2]! > ANSWER_CHARS,
        'the newest answer whole',
        15_000,
        () => sockets[2]!.destroyed,
      );
      expect(cuts).toHaveLength(2);
    } finally {
      diagnosticsChannel.unsubscribe('mcp:answer:stalled', heard);
      for (const socket of sockets) socket.destroy();
    }
  }, 30_000);
});

describe('pipelined requests: taken up one at a time, each in its turn on its connection', () => {
  const PIPELINE_STALL_MS = 200;
  let t: TestApp;
  beforeAll(async () => {
    // Short keep-alives: a paused connection learns its client left when a keep-alive cannot be written.
    t = await createTestApp({ providers: [EchoTool, SleeperTool], options: { writeStallTimeoutMs: PIPELINE_STALL_MS, subscriptions: { keepAliveMs: 100 } } });
  });
  afterAll(() => t.close());

  const sleeper = (ms: number) => rpc('tools/call', { name: 'sleeper', arguments: { ms } }, 'first');
  const echo = rpc('tools/call', { name: 'echo', arguments: { text: 'queued' } }, 'second');
  const listen = rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, 'listen');

  /** Counts `mcp:answer:stalled` events while `fn` runs. */
  async function stallsDuring(fn: () => Promise<void>): Promise<number> {
    let stalls = 0;
    const count = () => stalls++;
    diagnosticsChannel.subscribe('mcp:answer:stalled', count);
    try {
      await fn();
    } finally {
      diagnosticsChannel.unsubscribe('mcp:answer:stalled', count);
    }
    return stalls;
  }

  /** Opens a listen stream with `behind` pipelined after it, reads the stream, and records what is published until `then` is done. */
  async function behindListen(behind: Record<string, unknown>, then: (socket: Socket) => Promise<void>) {
    let received = '';
    const events = await recordEvents(['mcp:tool:start', 'mcp:method:error', 'mcp:wire:reject', 'mcp:request:cancelled'], async () => {
      const socket = await callAndNeverRead(t.server, listen, behind);
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      socket.resume();
      await until(() => received.includes('notifications/subscriptions/acknowledged'), 'the acknowledgment');
      await then(socket);
    });
    return { events, received };
  }

  it('takes a request up only once the answer before it went, then answers it on the same connection, however long that takes', async () => {
    let received = '';
    let stalls = 0;
    const events = await recordEvents(['mcp:tool:start', 'mcp:tool:stop'], async () => {
      stalls = await stallsDuring(async () => {
        const socket = await callAndNeverRead(t.server, sleeper(PIPELINE_STALL_MS * 4), echo);
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
        socket.resume();
        await until(
          () => received.includes('"id":"second"'),
          'the queued answer',
          5000,
          () => socket.destroyed,
        );
        expect(socket.destroyed).toBe(false);
        socket.destroy();
      });
    });
    expect(received.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(received.indexOf('"id":"first"')).toBeLessThan(received.indexOf('"id":"second"'));
    expect(stalls).toBe(0);
    // The echo was not run while the sleeper's answer held the connection.
    expect(events.map(({ channel, message }) => `${channel} ${message.tool}`)).toEqual([
      'mcp:tool:start sleeper',
      'mcp:tool:stop sleeper',
      'mcp:tool:start echo',
      'mcp:tool:stop echo',
    ]);
  });

  it('runs every check on a request in its turn: one from a foreign origin behind a slow call is refused (403), never run', async () => {
    let received = '';
    const events = await recordEvents(['mcp:tool:start', 'mcp:wire:reject'], async () => {
      const socket = await pipelineAndNeverRead(t.server, [{ body: sleeper(PIPELINE_STALL_MS) }, { body: echo, headers: { origin: 'https://evil.example' } }]);
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      socket.resume();
      await until(
        () => /HTTP\/1\.1 403[\s\S]*\r\n\r\n\{[\s\S]*\}$/.test(received), // refused before its body was read: no id
        'the refusal',
        5000,
        () => socket.destroyed,
      );
      socket.destroy();
    });
    expect(received.match(/HTTP\/1\.1 (\d+)/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 403']);
    expect(events.map(({ channel, message }) => `${channel} ${'tool' in message ? message.tool : message.reason}`)).toEqual([
      'mcp:tool:start sleeper',
      'mcp:wire:reject forbidden_origin',
    ]);
  });

  it('stops reading a connection while a request on it waits its turn: thousands pipelined behind a slow call are parsed a read at a time, then all answered in order', async () => {
    const CALLS = 3000;
    let parsed = 0;
    const count = () => parsed++;
    t.server.on('request', count);
    let received = '';
    try {
      const socket = await callAndNeverRead(
        t.server,
        sleeper(PIPELINE_STALL_MS * 4),
        ...Array.from({ length: CALLS }, (_, i) => rpc('tools/call', { name: 'echo', arguments: { text: 'p' } }, `call-${i}`)),
      );
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      socket.resume();
      await new Promise((resolve) => setTimeout(resolve, PIPELINE_STALL_MS * 2));
      // While the sleeper runs, Node has parsed what its first reads held, not the whole pipeline.
      expect(parsed).toBeLessThan(CALLS / 2);
      await until(
        () => received.includes(`"id":"call-${CALLS - 1}"`),
        'the last answer',
        20_000,
        () => socket.destroyed,
      );
      socket.destroy();
    } finally {
      t.server.off('request', count);
    }
    expect(parsed).toBe(CALLS + 1);
    expect(received.match(/HTTP\/1\.1 200/g)).toHaveLength(CALLS + 1);
    const order = [...received.matchAll(/"id":"([a-z]+(?:-\d+)?)"/g)].map((m) => m[1]);
    expect(order).toEqual(['first', ...Array.from({ length: CALLS }, (_, i) => `call-${i}`)]);
  }, 30_000);

  /** What a listen stream whose client left publishes, once the server learns it. */
  const cancelled = { channel: 'mcp:request:cancelled', message: { mount: '/mcp', method: 'subscriptions/listen', id: 'listen', by: 'close' } };

  /** Closes the client's socket and waits until the server learns it: the connection is not read while a request waits, so at a keep-alive it cannot write. */
  async function leave(socket: Socket): Promise<void> {
    const ended = nextEvent('mcp:request:cancelled', 3000);
    socket.destroy();
    await ended;
    await new Promise((resolve) => setTimeout(resolve, PIPELINE_STALL_MS * 2));
  }

  it('never reads nor runs a request pipelined behind a listen stream while the stream is open', async () => {
    // A body just within maxBodyBytes, larger than socket buffers take: what the server would hold, read and
    // answered, for as long as the stream lives.
    const big = rpc('tools/call', { name: 'echo', arguments: { text: 'b'.repeat(4 * 1024 * 1024 - 1024) } }, 'behind');
    const { events, received } = await behindListen(big, async (socket) => {
      await new Promise((resolve) => setTimeout(resolve, PIPELINE_STALL_MS * 4));
      await leave(socket);
    });
    expect(events).toEqual([cancelled]);
    expect(received).not.toContain('"id":"behind"');
  });

  it('lets a request pipelined behind a listen stream go, unread, unrun and unanswered, when its client leaves', async () => {
    const { events } = await behindListen(echo, leave);
    // The stream's end is the only thing published: the echo was neither run nor refused, and no fault was counted.
    expect(events).toEqual([cancelled]);
  });
});

describe('a listen stream whose reader keeps pace, slower than the writer', () => {
  const URI_PAD = 'p'.repeat(16 * 1024);
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [XResource], options: { writeStallTimeoutMs: STALL_MS, subscriptions: { maxBufferedBytes: 64 * 1024 * 1024 } } });
  });
  afterAll(() => t.close());

  it('is never cut while its client takes bytes, though more waits at every check than at the last', async () => {
    let stalls = 0;
    const count = () => stalls++;
    diagnosticsChannel.subscribe('mcp:answer:stalled', count);
    const body = rpc('subscriptions/listen', { notifications: { resourceSubscriptions: ['test://x'] } }, 'steady');
    const port = (t.server.address() as AddressInfo).port;
    let events = 0;
    let tail = '';
    let ended = false;
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent: false, headers: mirroredHeaders(body) }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const blocks = (tail + chunk).split('\n\n');
        tail = blocks.pop()!;
        events += blocks.length;
        // A slow reader: pauses after every chunk (a few MB/s), slower than the writer below.
        res.pause();
        setTimeout(() => res.resume(), 4);
      });
      res.on('close', () => (ended = true));
    });
    req.on('error', () => undefined);
    req.end(JSON.stringify(body));
    try {
      await until(
        () => events >= 1,
        'the acknowledgement',
        5000,
        () => ended,
      );
      const bus = t.app.get<McpEventBus>(McpEventBus);
      const published = 1500;
      // About 6 MB/s for 4 s: what waits in the process grows between the stall checks while the reader reads.
      for (let i = 0; i < published; i++) {
        await bus.publish({ kind: 'resourceUpdated', uri: `test://x/${i}/${URI_PAD}` });
        if (i % 40 === 39) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await until(
        () => events >= published + 1,
        'every change',
        20_000,
        () => ended,
      ).catch((e) => {
        throw new Error(`${e.message}: events ${events}, ended ${ended}, stalls ${stalls}`);
      });
      expect(stalls).toBe(0);
      expect(ended).toBe(false);
    } finally {
      req.destroy();
      diagnosticsChannel.unsubscribe('mcp:answer:stalled', count);
    }
  }, 40_000);
});

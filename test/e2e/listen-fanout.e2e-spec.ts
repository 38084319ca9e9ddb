import diagnosticsChannel from 'node:diagnostics_channel';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { McpEventBus, McpResource, type InProcessEventBus, type McpTelemetryEvents } from '../../lib/index.js';
import { WaitingAnswers } from '../../lib/response/waiting-answers.js';
import { ListenStreams } from '../../lib/subscriptions/listen-streams.js';
import { EchoTool } from '../support/fixture-tools.js';
import { listen, type Listener } from '../support/listen.js';
import { rpc } from '../support/mcp-client.js';
import { parseAnswer } from '../support/raw-exchange.js';
import { callAndNeverRead } from '../support/raw-http.js';
import { sseMessages } from '../support/sse.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { nextEvent, until } from '../support/wait.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

@McpResource({ uri: 'file:///project', name: 'project', mimeType: 'inode/directory' })
class ProjectResource {
  read() {
    return 'src/';
  }
}

/** A URI tail making each event about 16 KB on each stream. */
const LONG = `/${'x'.repeat(16 * 1024)}`;

/** Publishes `count` resource updates in one tick, numbered from `from`, each URI ending in `tail`. */
async function burst(bus: InProcessEventBus, from: number, count: number, tail = ''): Promise<void> {
  for (let i = from; i < from + count; i++) await bus.publish({ kind: 'resourceUpdated', uri: `file:///project/${i}${tail}` });
}

/** Opens a listen stream on the project's resources whose client never reads. */
function neverReadingListen(t: TestApp, id: string) {
  return callAndNeverRead(t.server, rpc('subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///project'] } }, id));
}

describe("the events published in one tick, on a listen stream's connection", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool, ProjectResource], options: { subscriptions: { keepAliveMs: 60_000 } } });
  });
  afterAll(() => t.close());

  it('go out as one write at the end of the tick, after the acknowledgment and what came before, each with its own id, in order', async () => {
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    const socket = await callAndNeverRead(t.server, rpc('subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///project'] } }, 'turns'));
    try {
      const received: Buffer[] = [];
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        text += chunk.toString('latin1');
      });
      socket.resume();
      await until(() => text.includes('acknowledged'), 'the acknowledgment');
      await burst(bus, 0, 50);
      await until(() => text.includes('"file:///project/49"'), 'the first tick');
      await burst(bus, 50, 50);
      await until(() => text.includes('"file:///project/99"') && text.endsWith('\n\n\r\n'), 'the second tick');
      const answer = parseAnswer(Buffer.concat(received), { complete: false });
      const messages = sseMessages(answer.body.toString('utf8')) as Record<string, any>[];
      expect(messages[0]!.method).toBe('notifications/subscriptions/acknowledged');
      expect(messages.slice(1).map((m) => m.params.uri)).toEqual(Array.from({ length: 100 }, (_, i) => `file:///project/${i}`));
      expect(messages.every((m) => m.params._meta[SUBSCRIPTION_ID] === 'turns')).toBe(true);
      expect(answer.chunks.map((chunk) => chunk.toString('latin1').split('\n\n').length - 1)).toEqual([1, 50, 50]);
    } finally {
      socket.destroy();
    }
  });
});

describe('a burst of events to many listen streams, past maxWaitingBytes together', () => {
  const maxWaitingBytes = 100_000;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool, ProjectResource], options: { maxWaitingBytes, subscriptions: { keepAliveMs: 60_000 } } });
  });
  afterAll(() => t.close());

  it('is counted as it is queued: streams are cut within the tick (bound maxWaitingBytes), never more waiting than the bound, and the others get every event', async () => {
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    const waiting = t.app.get(WaitingAnswers);
    const readers = await Promise.all(Array.from({ length: 8 }, (_, i) => listen(t.server, { resourceSubscriptions: ['file:///project'] }, `reader-${i}`)));
    const count = waiting.count.bind(waiting);
    let most = 0;
    waiting.count = (member, bytes, moved) => {
      count(member, bytes, moved);
      most = Math.max(most, waiting.held);
    };
    try {
      await Promise.all(readers.map((l) => l.nth(1)));
      const events = 200; // about 30 KB per stream, 240 KB together
      const settled = new Set<Listener>();
      for (const l of readers) void l.ended.then(() => settled.add(l));
      const cuts: McpTelemetryEvents['mcp:answer:stalled'][] = [];
      const heard = (message: unknown) => cuts.push(message as (typeof cuts)[number]);
      diagnosticsChannel.subscribe('mcp:answer:stalled', heard);
      let cutInTick = 0;
      try {
        await burst(bus, 0, events);
        cutInTick = cuts.length; // still in the publishing tick: nothing was written yet
        await until(() => readers.every((l) => l.messages.length === events + 1 || settled.has(l)), 'every reader served or cut', 10_000);
      } finally {
        diagnosticsChannel.unsubscribe('mcp:answer:stalled', heard);
      }
      expect(cutInTick).toBeGreaterThan(0);
      expect(cuts.every((message) => message.bound === 'maxWaitingBytes' && message.method === 'subscriptions/listen')).toBe(true);
      expect(cuts.every((message) => message.waitingBytes > 0)).toBe(true); // its events queued in the tick, not written yet
      expect(most).toBeLessThanOrEqual(maxWaitingBytes);
      const served = readers.filter((l) => !settled.has(l));
      expect(served.length).toBe(readers.length - cuts.length);
      expect(served.length).toBeGreaterThan(0);
      for (const l of served) {
        expect(l.messages.slice(1).map((m) => m.params.uri)).toEqual(Array.from({ length: events }, (_, i) => `file:///project/${i}`));
        expect(l.messages.every((m) => m.params._meta[SUBSCRIPTION_ID] === l.messages[0]!.params._meta[SUBSCRIPTION_ID])).toBe(true);
      }
    } finally {
      waiting.count = count;
      for (const l of readers) l.close();
    }
  });
});

describe('listen streams whose clients never read, their events held while the sockets are backed up', () => {
  const maxWaitingBytes = 8 * 1024 * 1024;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool, ProjectResource],
      options: { maxWaitingBytes, subscriptions: { keepAliveMs: 60_000, maxBufferedBytes: 64 * 1024 * 1024, maxOpenBytes: 512 * 1024 * 1024 } },
    });
  });
  afterAll(() => t.close());

  it('count what is held toward maxWaitingBytes, and a burst counts on top of it as it is queued', async () => {
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    const waiting = t.app.get(WaitingAnswers);
    const sockets = await Promise.all(['held-a', 'held-b'].map((id) => neverReadingListen(t, id)));
    const cuts: McpTelemetryEvents['mcp:answer:stalled'][] = [];
    const heard = (message: unknown) => cuts.push(message as (typeof cuts)[number]);
    diagnosticsChannel.subscribe('mcp:answer:stalled', heard);
    try {
      await until(() => waiting.held === 0 && t.app.get(ListenStreams).size === 2, 'both streams open', 5_000);
      // One event a tick, until the sockets are full and what follows is held: past 5 MiB counted, under the bound.
      for (let i = 0; i < 3_000 && waiting.held < 5 * 1024 * 1024; i++) {
        await burst(bus, i, 1, LONG);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(waiting.held).toBeGreaterThanOrEqual(5 * 1024 * 1024);
      expect(cuts).toEqual([]);
      // About 2 MB a stream in one tick: past the bound only on top of what waits.
      await burst(bus, 3_000, 120, LONG);
      expect(cuts.map((cut) => cut.bound)).toEqual(['maxWaitingBytes']); // still in the publishing tick
    } finally {
      diagnosticsChannel.unsubscribe('mcp:answer:stalled', heard);
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('a listen stream whose client never reads a burst written in one tick', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool, ProjectResource],
      options: { writeStallTimeoutMs: 1000, subscriptions: { keepAliveMs: 60_000, maxBufferedBytes: 64 * 1024 * 1024 } },
    });
  });
  afterAll(() => t.close());

  it('is cut for the stall with the burst counted once, not again for what of the write its socket has yet to send', async () => {
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    const socket = await neverReadingListen(t, 'never-read');
    try {
      await until(() => t.app.get(ListenStreams).size === 1, 'the stream open', 5_000);
      const stalled = nextEvent('mcp:answer:stalled', 10_000);
      const events = 1_000; // about 16 MB in one write, past what loopback socket buffers take
      await burst(bus, 0, events, LONG);
      const cut = await stalled;
      expect(cut).toMatchObject({ method: 'subscriptions/listen', bound: 'writeStallTimeoutMs' });
      const burstBytes = events * LONG.length;
      expect(cut.waitingBytes).toBeGreaterThan(burstBytes / 2);
      expect(cut.waitingBytes).toBeLessThan(burstBytes + 1024 * 1024);
    } finally {
      socket.destroy();
    }
  });
});

describe('a listen stream whose client never reads a burst written in one tick, then another burst', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool, ProjectResource],
      options: { maxWaitingBytes: 64 * 1024 * 1024, subscriptions: { keepAliveMs: 60_000, maxBufferedBytes: 64 * 1024 * 1024 } },
    });
  });
  afterAll(() => t.close());

  it('counts the second burst toward maxWaitingBytes on top of what of the first its socket still holds', async () => {
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    const waiting = t.app.get(WaitingAnswers);
    const socket = await neverReadingListen(t, 'two-bursts');
    try {
      await until(() => t.app.get(ListenStreams).size === 1 && waiting.held === 0, 'the stream open', 5_000);
      await burst(bus, 0, 1_000, LONG); // about 16 MB
      await new Promise((resolve) => setImmediate(resolve)); // written as one, past what loopback socket buffers take
      const before = waiting.held;
      const events = 100; // about 1.6 MB
      await burst(bus, 1_000, events, LONG);
      expect(before).toBeGreaterThan(1024 * 1024);
      expect(waiting.held).toBeGreaterThanOrEqual(before + events * LONG.length);
    } finally {
      socket.destroy();
    }
  });
});

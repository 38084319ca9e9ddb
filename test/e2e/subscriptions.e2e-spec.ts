import type { AddressInfo } from 'node:net';
import { setImmediate as tick } from 'node:timers/promises';

import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, type Provider } from '@nestjs/common';

import {
  InProcessEventBus,
  MCP_CHANGE_KINDS,
  McpEventBus,
  McpPrompt,
  McpResource,
  type McpChangeEvent,
  type McpChangeListener,
  type McpModuleOptions,
  type McpUnsubscribe,
} from '../../lib/index.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { ListenStreams } from '../../lib/subscriptions/listen-streams.js';
import { EchoTool } from '../support/fixture-tools.js';
import { initialize, legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { listen, type Listener } from '../support/listen.js';
import { post, rpc } from '../support/mcp-client.js';
import { parseAnswer } from '../support/raw-exchange.js';
import { callAndNeverRead } from '../support/raw-http.js';
import { sseMessages } from '../support/sse.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

const schema = await ProtocolSchema.vendored();
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

@McpPrompt({ name: 'greeting', description: 'Greets.' })
class GreetingPrompt {
  get() {
    return 'Hello.';
  }
}

@McpResource({ uri: 'file:///project', name: 'project', mimeType: 'inode/directory' })
class ProjectResource {
  read() {
    return 'src/';
  }
}

const methods = (listener: Listener) => listener.messages.map((m) => m.method ?? 'response');

/** Calls a tool that publishes nothing, proving the server went on serving others. */
const echo = (t: TestApp) => post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'still here' } }));

function appWith(providers: Provider[], options: Partial<McpModuleOptions> = {}) {
  return createTestApp({ providers, options: { subscriptions: { keepAliveMs: 100, maxBufferedBytes: 64 * 1024 }, ...options } });
}

describe('subscriptions/listen and the event bus', () => {
  let t: TestApp;
  let bus: InProcessEventBus;
  const open: Listener[] = [];
  const opened = async (l: Promise<Listener>) => {
    const listener = await l;
    open.push(listener);
    return listener;
  };

  beforeAll(async () => {
    t = await appWith([EchoTool, GreetingPrompt, ProjectResource]);
    bus = t.app.get(McpEventBus);
  });
  afterEach(async () => {
    for (const l of open.splice(0)) l.close();
    await until(() => bus.subscriberCount === 0, 'every stream to unsubscribe');
  });
  afterAll(() => t.close());

  describe('opening a stream', () => {
    it('answers SSE whose first message acknowledges the filter, tagged with the listen id', async () => {
      const notifications = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['file:///project', 'test://elsewhere'] };
      const l = await opened(listen(t.server, { ...notifications, someFutureKind: true }, 'sub-1'));
      expect(l.status).toBe(200);
      expect(l.headers['content-type']).toBe('text/event-stream');
      const ack = await l.nth(1);
      expect(ack).toEqual({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications, _meta: { [SUBSCRIPTION_ID]: 'sub-1' } } });
      expect(schema.check('SubscriptionsAcknowledgedNotification', ack)).toEqual([]);
    });

    it('acknowledges resource URIs once each, leaving out what is not an absolute URI', async () => {
      const l = await opened(listen(t.server, { resourceSubscriptions: ['file:///project', 'not a uri', 'file:///project', 'relative/path', 'test://x'] }, 'uris'));
      expect((await l.nth(1)).params.notifications).toEqual({ resourceSubscriptions: ['file:///project', 'test://x'] });
    });

    it('honors only the kinds this server serves: no prompts or resources kinds on a server with tools only', async () => {
      const toolsOnly = await appWith([EchoTool]);
      try {
        const everything = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['file:///project'] };
        const l = await listen(toolsOnly.server, everything, 'tools-server');
        expect((await l.nth(1)).params.notifications).toEqual({ toolsListChanged: true });
        l.close();
        const res = await post(toolsOnly.server, rpc('server/discover'));
        expect(res.body.result.capabilities).toEqual({ tools: { listChanged: true }, logging: {} });
      } finally {
        await toolsOnly.close();
      }
    });

    it('leaves out kinds asked for with false, and acknowledges an empty filter as empty', async () => {
      const l = await opened(listen(t.server, { toolsListChanged: false, promptsListChanged: true }, 'sub-2'));
      expect((await l.nth(1)).params.notifications).toEqual({ promptsListChanged: true });
      const empty = await opened(listen(t.server, {}, 'sub-3'));
      expect((await empty.nth(1)).params.notifications).toEqual({});
    });

    it('advertises what listen delivers in server/discover: listChanged on tools, prompts and resources, and resources.subscribe', async () => {
      const res = await post(t.server, rpc('server/discover'));
      expect(res.body.result.capabilities).toMatchObject({ tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true } });
    });

    it('refuses a filter the schema does not allow (400 + -32602) and a missing one', async () => {
      for (const params of [{ notifications: { toolsListChanged: 'yes' } }, { notifications: { resourceSubscriptions: 'test://a' } }, {}]) {
        const res = await post(t.server, rpc('subscriptions/listen', params, 'bad'));
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ id: 'bad', error: { code: -32602 } });
      }
      expect(bus.subscriberCount).toBe(0);
    });

    // The suite's streams hold at most 64 KiB (appWith); an acknowledgment repeats the filter.
    const uris = (count: number) => Array.from({ length: count }, (_, i) => `file:///project/${String(i).padStart(40, '0')}`);

    it('refuses a filter whose acknowledgment alone would be more than a stream may hold (400 + -32602), before streaming', async () => {
      const res = await post(t.server, rpc('subscriptions/listen', { notifications: { resourceSubscriptions: uris(1_500) } }, 'big-filter'));
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({
        id: 'big-filter',
        error: { code: -32602, data: { reason: 'listen_filter_too_large', filterBytes: expect.any(Number), maxBytes: 64 * 1024 } },
      });
      expect(res.body.error.data.filterBytes).toBeGreaterThan(64 * 1024);
      expect(res.body.error.message).toMatch(/^Invalid params: the stream's acknowledgment would repeat \d+ bytes of filter, more than a listen stream may hold \(65536/);
      expect(bus.subscriberCount).toBe(0);
    });

    it('serves a filter just under the bound: its acknowledgment comes whole, then the changes', async () => {
      const filter = uris(1_100); // about 62 KB of acknowledgment, written in one turn
      const l = await opened(listen(t.server, { resourceSubscriptions: filter }, 'wide-filter'));
      expect(l.status).toBe(200);
      expect((await l.nth(1)).params.notifications.resourceSubscriptions).toEqual(filter);
      await bus.publish({ kind: 'resourceUpdated', uri: filter[7]! });
      expect((await l.nth(2)).params.uri).toBe(filter[7]);
    });

    it('refuses a request id too long to repeat in every message (400 + -32600), before streaming', async () => {
      const id = 'i'.repeat(257);
      const res = await post(t.server, rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, id));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ id, error: { code: -32600, data: { reason: 'listen_id_too_long', maxChars: 256 } } });
      expect(bus.subscriberCount).toBe(0);
      const fits = await opened(listen(t.server, { toolsListChanged: true }, 'i'.repeat(256)));
      expect((await fits.nth(1)).params._meta[SUBSCRIPTION_ID]).toBe('i'.repeat(256));
    });

    it('refuses a client whose Accept excludes SSE (406 + -32600), subscribing to nothing', async () => {
      const res = await post(t.server, rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, 'json-only'), { accept: 'application/json' });
      expect(res.status).toBe(406);
      expect(res.body).toMatchObject({ id: 'json-only', error: { code: -32600, data: { accept: 'application/json' } } });
      expect(bus.subscriberCount).toBe(0);
    });
  });

  describe('delivering changes', () => {
    it('delivers only the kinds a stream asked for: a prompts-only stream never gets a tools change', async () => {
      const prompts = await opened(listen(t.server, { promptsListChanged: true }, 'prompts-only'));
      const tools = await opened(listen(t.server, { toolsListChanged: true }, 'tools-only'));
      await Promise.all([prompts.nth(1), tools.nth(1)]);
      await bus.publish({ kind: 'toolsListChanged' });
      await bus.publish({ kind: 'promptsListChanged' });
      await prompts.nth(2);
      await tools.nth(2);
      await bus.publish({ kind: 'resourcesListChanged' });
      await echo(t);
      expect(methods(prompts)).toEqual(['notifications/subscriptions/acknowledged', 'notifications/prompts/list_changed']);
      expect(methods(tools)).toEqual(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
    });

    it.each([
      ['a string', 'listen-7'],
      ['a number', 7],
    ])('tags every message with the listen id, keeping its type (%s)', async (_what, id) => {
      const l = await opened(listen(t.server, { toolsListChanged: true, promptsListChanged: true }, id));
      await l.nth(1);
      await bus.publish({ kind: 'toolsListChanged' });
      await bus.publish({ kind: 'promptsListChanged' });
      await l.nth(3);
      expect(l.messages.map((m) => m.params._meta[SUBSCRIPTION_ID])).toEqual([id, id, id]);
      expect(schema.check('ToolListChangedNotification', l.messages[1])).toEqual([]);
      expect(schema.check('PromptListChangedNotification', l.messages[2])).toEqual([]);
    });

    it('delivers a resource update only for a subscribed URI or a sub-resource of one', async () => {
      const l = await opened(listen(t.server, { resourceSubscriptions: ['file:///project', 'test://exact', 'https://example.com/docs/'] }, 'resources'));
      await l.nth(1);
      const updated = [
        'file:///project', // subscribed
        'file:///project/src/main.rs', // a sub-resource
        'file:///projects', // another resource with a longer name
        'file:///other.txt',
        'test://exact/child', // a sub-resource
        'test://exactly',
        'https://example.com/docs/intro.html', // under a subscribed "directory"
        'https://example.com/doc',
        'test://exact', // last: when it arrives, everything before it was decided
      ];
      for (const uri of updated) await bus.publish({ kind: 'resourceUpdated', uri });
      await bus.publish({ kind: 'resourcesListChanged' }); // not asked for
      await until(() => l.messages.at(-1)?.params.uri === 'test://exact', 'the last update');
      await echo(t);
      expect(l.messages.slice(1).map((m) => m.params.uri)).toEqual([
        'file:///project',
        'file:///project/src/main.rs',
        'test://exact/child',
        'https://example.com/docs/intro.html',
        'test://exact',
      ]);
      for (const m of l.messages.slice(1)) expect(schema.check('ResourceUpdatedNotification', m)).toEqual([]);
    });

    it('fans one change out to every open stream that asked for it', async () => {
      const streams = await Promise.all([1, 2, 3].map((n) => opened(listen(t.server, { toolsListChanged: true }, `fan-${n}`))));
      await Promise.all(streams.map((l) => l.nth(1)));
      expect(bus.subscriberCount).toBe(3);
      await bus.publish({ kind: 'toolsListChanged' });
      const delivered = await Promise.all(streams.map((l) => l.nth(2)));
      expect(delivered.map((m) => m.params._meta[SUBSCRIPTION_ID])).toEqual(['fan-1', 'fan-2', 'fan-3']);
    });

    it('sends keep-alive comments at the configured interval', async () => {
      const l = await opened(listen(t.server, { toolsListChanged: true }, 'keep-alive'));
      await l.nth(1);
      await until(() => l.comments >= 3, 'three keep-alive comments', 10_000); // 300 ms at 100 ms; the default is 30 s
      expect(l.messages).toHaveLength(1); // comments carry no message
    });

    it('refuses a value that is not a change event at publish, and delivers nothing for it', async () => {
      const l = await opened(listen(t.server, { toolsListChanged: true }, 'strict'));
      await l.nth(1);
      await expect(bus.publish({ kind: 'toolsChanged' } as unknown as McpChangeEvent)).rejects.toThrow(/McpEventBus.publish: not a change event.*toolsChanged/);
      await expect(bus.publish({ kind: 'resourceUpdated', uri: 'notes://notes/my list' })).rejects.toThrow(
        'McpEventBus.publish: a resourceUpdated event\'s uri must be an absolute URI (RFC 3986: a scheme, and spaces and other reserved characters percent-encoded, as encodeURIComponent does for a segment), got "notes://notes/my list"',
      );
      await bus.publish({ kind: 'toolsListChanged' });
      await l.nth(2);
      expect(methods(l)).toEqual(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
    });
  });

  /** One change event of each kind, a filter asking for exactly that kind, and the notification it becomes (method, schema definition). */
  const EVENT_OF = {
    toolsListChanged: [{ kind: 'toolsListChanged' }, { toolsListChanged: true }, 'notifications/tools/list_changed', 'ToolListChangedNotification'],
    promptsListChanged: [{ kind: 'promptsListChanged' }, { promptsListChanged: true }, 'notifications/prompts/list_changed', 'PromptListChangedNotification'],
    resourcesListChanged: [{ kind: 'resourcesListChanged' }, { resourcesListChanged: true }, 'notifications/resources/list_changed', 'ResourceListChangedNotification'],
    resourceUpdated: [
      { kind: 'resourceUpdated', uri: 'file:///project' },
      { resourceSubscriptions: ['file:///project'] },
      'notifications/resources/updated',
      'ResourceUpdatedNotification',
    ],
  } satisfies Record<(typeof MCP_CHANGE_KINDS)[number], [McpChangeEvent, Record<string, unknown>, string, string]>;

  describe.each(MCP_CHANGE_KINDS)('change kind %s', (kind) => {
    it('reaches a stream that asked for it, as its notification, and no stream that asked for every other kind', async () => {
      const [event, filter, notification, definition] = EVENT_OF[kind];
      const others = Object.assign({}, ...MCP_CHANGE_KINDS.filter((k) => k !== kind).map((k) => EVENT_OF[k][1])) as Record<string, unknown>;
      const wanting = await opened(listen(t.server, filter, `wants-${kind}`));
      const rest = await opened(listen(t.server, others, `rest-${kind}`));
      expect((await rest.nth(1)).params.notifications).toEqual(others);
      await wanting.nth(1);
      await bus.publish(event);
      const delivered = await wanting.nth(2);
      expect(delivered.method).toBe(notification);
      expect(schema.check(definition, delivered)).toEqual([]);
      expect(delivered.params._meta).toEqual({ [SUBSCRIPTION_ID]: `wants-${kind}` });
      await echo(t);
      expect(rest.messages).toHaveLength(1);
    });
  });

  describe('ending a stream', () => {
    it('unsubscribes from the bus when the client disconnects', async () => {
      const a = await opened(listen(t.server, { toolsListChanged: true }, 'leave-a'));
      const b = await opened(listen(t.server, { promptsListChanged: true }, 'leave-b'));
      await Promise.all([a.nth(1), b.nth(1)]);
      expect(bus.subscriberCount).toBe(2);
      expect(t.app.get(ListenStreams).size).toBe(2);
      a.close();
      await until(() => bus.subscriberCount === 1, 'one unsubscribe');
      b.close();
      await until(() => bus.subscriberCount === 0, 'the other unsubscribe');
      expect(t.app.get(ListenStreams).size).toBe(0);
      await bus.publish({ kind: 'toolsListChanged' }); // reaches no one, breaks nothing
      expect((await echo(t)).status).toBe(200);
    });

    it('keeps every reader that reads through a burst of changes published in one turn, larger than maxBufferedBytes', async () => {
      const readers = await Promise.all([1, 2, 3].map((n) => opened(listen(t.server, { toolsListChanged: true }, `reader-${n}`))));
      await Promise.all(readers.map((l) => l.nth(1)));
      const burst = 2_500; // about 250 KB per stream, all written before the socket takes any
      for (let i = 0; i < burst; i++) await bus.publish({ kind: 'toolsListChanged' });
      for (const l of readers) await until(() => l.messages.length === burst + 1, `all ${burst} changes on ${l.messages[0]?.params._meta[SUBSCRIPTION_ID]}`, 10_000);
      expect(bus.subscriberCount).toBe(3);
    });

    it('drops a client that does not read once it holds more than maxBufferedBytes, while a reading one is served in full', async () => {
      const slow = await opened(listen(t.server, { toolsListChanged: true }, 'slow'));
      const healthy = await opened(listen(t.server, { toolsListChanged: true }, 'healthy'));
      await Promise.all([slow.nth(1), healthy.nth(1)]);
      slow.pause();
      // Fill the kernel buffers first (megabytes on loopback); the bound applies to what then waits in this process.
      let published = 0;
      while (bus.subscriberCount === 2 && published < 400_000) {
        for (let i = 0; i < 100; i++) await bus.publish({ kind: 'toolsListChanged' });
        published += 100;
        await tick(); // the healthy client reads between batches
      }
      expect(bus.subscriberCount).toBe(1); // the slow one was dropped, and unsubscribed
      await until(() => healthy.messages.length === published + 1, `all ${published} changes on the healthy stream`, 10_000);
      slow.resume();
      await slow.ended;
      const got = slow.messages.length - 1;
      expect(got).toBeLessThan(published); // it lost what it did not read, and knows it: the stream ended
      expect(slow.messages.every((m) => m.method !== undefined)).toBe(true); // with no listen result: a drop, not a graceful end
      expect(healthy.messages.every((m) => m.params._meta[SUBSCRIPTION_ID] === 'healthy')).toBe(true);
    }, 60_000);
  });
});

describe('at most subscriptions.maxStreams listen streams at once', () => {
  it('refuses one more stream (503 + -32603, before anything is streamed), and opens one again once a stream ends', async () => {
    const t = await appWith([EchoTool], { subscriptions: { maxStreams: 2 } });
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    const open: Listener[] = [];
    try {
      for (const id of ['first', 'second']) open.push(await listen(t.server, { toolsListChanged: true }, id));
      await Promise.all(open.map((l) => l.nth(1)));
      const refused = await listen(t.server, { toolsListChanged: true }, 'third');
      await refused.ended;
      expect(refused.status).toBe(503);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.messages).toEqual([
        {
          jsonrpc: '2.0',
          id: 'third',
          error: {
            code: -32603,
            message: 'Internal error: 2 listen streams are already open on this server; retry later, or close a stream you no longer need.',
            data: { reason: 'too_many_listen_streams' },
          },
        },
      ]);
      expect(bus.subscriberCount).toBe(2);
      expect((await echo(t)).status).toBe(200); // other requests are served meanwhile
      open.shift()!.close();
      await until(() => t.app.get(ListenStreams).size === 1, 'the closed stream to end');
      const again = await listen(t.server, { toolsListChanged: true }, 'again');
      open.push(again);
      expect((await again.nth(1)).method).toBe('notifications/subscriptions/acknowledged');
    } finally {
      for (const l of open) l.close();
      await t.close();
    }
  });
});

describe('at most subscriptions.maxOpenBytes held by the open listen streams together', () => {
  it('refuses a stream whose request would take them over (503 + -32603, before anything is streamed), counting request and acknowledged filter, and frees its bytes when a stream ends', async () => {
    // Each request carries 1,000 filter entries that are no absolute URI (20 KB of text, about 81 KB parsed, at
    // HEAP_BYTES_PER_VALUE a value): the acknowledgment drops them, the request still holds them.
    const filter = { resourceSubscriptions: ['file:///kept', ...Array.from({ length: 1000 }, (_, i) => `not a uri ${i} ${'x'.repeat(8)}`)] };
    const t = await appWith([EchoTool, ProjectResource], { subscriptions: { maxOpenBytes: 200_000 } });
    const open: Listener[] = [];
    try {
      for (const id of ['first', 'second']) open.push(await listen(t.server, filter, id));
      const acks = await Promise.all(open.map((l) => l.nth(1)));
      expect(acks.map((ack) => ack.params.notifications.resourceSubscriptions)).toEqual([['file:///kept'], ['file:///kept']]);
      const refused = await listen(t.server, filter, 'third');
      await refused.ended;
      expect(refused.status).toBe(503);
      expect(refused.messages).toHaveLength(1);
      expect(refused.messages[0].error).toMatchObject({ code: -32603, data: { reason: 'listen_bytes_limit' } });
      expect(refused.messages[0].error.message).toMatch(
        /^Internal error: the listen streams open on this server already hold \d+ of the 200000 bytes they may, and this one would hold \d+; retry later/,
      );
      expect(t.app.get(ListenStreams).size).toBe(2);
      const small = await listen(t.server, { toolsListChanged: true }, 'small'); // a small request still fits
      open.push(small);
      expect((await small.nth(1)).method).toBe('notifications/subscriptions/acknowledged');
      open.shift()!.close();
      await until(() => t.app.get(ListenStreams).size === 2, 'the closed stream to end');
      const again = await listen(t.server, filter, 'again');
      open.push(again);
      expect((await again.nth(1)).method).toBe('notifications/subscriptions/acknowledged');
    } finally {
      for (const l of open) l.close();
      await t.close();
    }
  });
});

describe('a listen stream whose request fits subscriptions.maxOpenBytes but not with its acknowledged filter', () => {
  it('is refused (503 + -32603): a stream holds its acknowledgment beside its request', async () => {
    // About 203 KB of request, and as much again of acknowledged filter: 1,000 absolute URIs the acknowledgment keeps.
    const filter = { resourceSubscriptions: Array.from({ length: 1000 }, (_, i) => `file:///${i}/${'x'.repeat(190)}`) };
    const t = await appWith([EchoTool, ProjectResource], { subscriptions: { maxOpenBytes: 300_000 } });
    try {
      const refused = await listen(t.server, filter, 'big');
      await refused.ended;
      expect(refused.status).toBe(503);
      expect(refused.messages[0].error).toMatchObject({ code: -32603, data: { reason: 'listen_bytes_limit' } });
      expect(t.app.get(ListenStreams).size).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe("a listen stream's header lines, counted beside its body against subscriptions.maxOpenBytes", () => {
  it('refuses a stream whose header lines would take the open streams over, though its body is small', async () => {
    const t = await appWith([EchoTool], { subscriptions: { maxOpenBytes: 20_000 } });
    const open: Listener[] = [];
    try {
      open.push(await listen(t.server, { toolsListChanged: true }, 'plain'));
      expect((await open[0]!.nth(1)).method).toBe('notifications/subscriptions/acknowledged');
      // 150 lines of about 50 characters: some 7 KB as sent, about 19 KB as the process holds them.
      const padding = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`x-pad-${i}`, 'p'.repeat(40)]));
      const refused = await listen(t.server, { toolsListChanged: true }, 'padded', padding);
      expect(refused.status).toBe(503);
      await refused.ended;
      expect(refused.messages[0]!.error).toMatchObject({ code: -32603, data: { reason: 'listen_bytes_limit' } });
      expect(t.app.get(ListenStreams).size).toBe(1);
    } finally {
      for (const l of open) l.close();
      await t.close();
    }
  });
});

describe('listen streams whose clients do not read, past maxOpenBytes together', () => {
  it('drops a stream once what waits for the readers would take the open streams past maxOpenBytes (each under maxBufferedBytes), and gives its bytes back', async () => {
    const t = await appWith([EchoTool, ProjectResource], { subscriptions: { keepAliveMs: 60_000, maxBufferedBytes: 64 * 1024 * 1024, maxOpenBytes: 2_000_000 } });
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    const streams = t.app.get(ListenStreams);
    const listen = (id: string) => callAndNeverRead(t.server, rpc('subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///project'] } }, id));
    const sockets = [await listen('one'), await listen('two')];
    try {
      await until(() => bus.subscriberCount === 2, 'both streams to subscribe');
      const opened = streams.held;
      // About 12 MB of events per stream: more than the kernel buffers take, far less than maxBufferedBytes.
      for (let i = 0; i < 80_000; i++) await bus.publish({ kind: 'resourceUpdated', uri: `file:///project/${i}` });
      // The drop comes with the first check after the loop; on a loaded machine, collecting the heap the loop built can hold it for seconds.
      await until(() => bus.subscriberCount < 2, 'a stream to be dropped', 15_000);
      expect(streams.held).toBeLessThanOrEqual(2_000_000);
      for (const socket of sockets) socket.destroy();
      await until(() => streams.size === 0, 'the streams to end');
      expect(streams.held).toBe(0);
      expect(opened).toBeGreaterThan(0);
      expect((await echo(t)).status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
      await t.close();
    }
  }, 60_000);
});

describe('a listen stream of a non-ASCII request id whose client does not read', () => {
  it('counts what it holds in bytes, not characters: dropped once past maxBufferedBytes of UTF-8', async () => {
    const MAX = 16 * 1024 * 1024;
    const t = await appWith([EchoTool, ProjectResource], { subscriptions: { keepAliveMs: 60_000, maxBufferedBytes: MAX, maxOpenBytes: 1024 * 1024 * 1024 } });
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    // Every event repeats the id (its subscriptionId): 256 characters, 768 bytes of UTF-8.
    const id = '語'.repeat(256);
    const socket = await callAndNeverRead(t.server, rpc('subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///project'] } }, id));
    try {
      await until(() => bus.subscriberCount === 1, 'the stream to subscribe');
      // Each event about 900 bytes in about 400 characters: 32,000 of them are 29 MB, past the bound with what the
      // kernel buffers besides; counted in characters they would be 13 MB, under it.
      for (let i = 0; i < 32_000 && bus.subscriberCount === 1; i++) await bus.publish({ kind: 'resourceUpdated', uri: `file:///project/${i}` });
      await until(() => bus.subscriberCount === 0, 'the stream to be dropped', 15_000);
      expect(bus.subscriberCount).toBe(0);
    } finally {
      socket.destroy();
      await t.close();
    }
  }, 60_000);
});

describe('a listen stream whose client catches up while no event comes', () => {
  it('gives back to maxOpenBytes what the reader took at the next keep-alive, the stream left open', async () => {
    const t = await appWith([EchoTool, ProjectResource], { subscriptions: { keepAliveMs: 100, maxBufferedBytes: 64 * 1024 * 1024 } });
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    const streams = t.app.get(ListenStreams);
    const socket = await callAndNeverRead(t.server, rpc('subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///project'] } }, 'catches-up'));
    try {
      await until(() => bus.subscriberCount === 1, 'the stream to subscribe');
      const opened = streams.held; // its request and filter
      // More than the kernel buffers take (megabytes on loopback), so events wait in this process and are counted.
      for (let i = 0; i < 80_000; i++) await bus.publish({ kind: 'resourceUpdated', uri: `file:///project/${i}` });
      await until(() => streams.held > opened, 'what waits to be counted against maxOpenBytes');
      const last = `"file:///project/79999"`;
      let tail = '';
      await new Promise<void>((resolve) => {
        socket.on('data', (chunk: Buffer) => {
          tail = (tail + chunk.toString('latin1')).slice(-200);
          if (tail.includes(last)) resolve();
        });
        socket.resume();
      });
      // No event is published from here on: only the keep-alive's recount can give the bytes back.
      await until(() => streams.held === opened, 'the bytes the reader took to be given back');
      expect(bus.subscriberCount).toBe(1); // still open
    } finally {
      socket.destroy();
      await t.close();
    }
  }, 60_000);
});

describe('a listen stream whose client falls behind, within maxBufferedBytes', () => {
  it('holds what waits as text and sends it as one chunk once the socket drains: every event arrives, in order', async () => {
    const t = await appWith([EchoTool, ProjectResource], { subscriptions: { keepAliveMs: 60_000, maxBufferedBytes: 64 * 1024 * 1024 } });
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    const socket = await callAndNeverRead(t.server, rpc('subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///project'] } }, 'behind'));
    try {
      await until(() => bus.subscriberCount === 1, 'the stream to subscribe');
      // More than the kernel buffers take (megabytes on loopback), so later events wait in this process.
      const count = 80_000;
      for (let i = 0; i < count; i++) await bus.publish({ kind: 'resourceUpdated', uri: `file:///project/${i}` });
      const received: Buffer[] = [];
      let tail = '';
      const last = `"file:///project/${count - 1}"`;
      await new Promise<void>((resolve) => {
        socket.on('data', (chunk: Buffer) => {
          received.push(chunk);
          tail = (tail + chunk.toString('latin1')).slice(-200);
          if (tail.includes(last) && tail.endsWith('\n\n\r\n')) resolve();
        });
        socket.resume();
      });
      const answer = parseAnswer(Buffer.concat(received), { complete: false });
      const messages = sseMessages(answer.body.toString('utf8')) as Record<string, any>[];
      expect(messages[0]!.method).toBe('notifications/subscriptions/acknowledged');
      expect(messages.slice(1).map((m) => m.params.uri)).toEqual(Array.from({ length: count }, (_, i) => `file:///project/${i}`));
      const eventsPerChunk = answer.chunks.map((chunk) => chunk.toString('latin1').split('\n\n').length - 1);
      expect(Math.max(...eventsPerChunk)).toBeGreaterThan(100); // what waited went out whole, not one chunk per event
      expect(bus.subscriberCount).toBe(1); // never dropped
    } finally {
      socket.destroy();
      await t.close();
    }
  }, 60_000);
});

describe('ending listen streams at application shutdown', () => {
  it('sends the listen result (the subscription id in _meta), then closes; the application stops promptly', async () => {
    const t = await appWith([EchoTool]);
    const l = await listen(t.server, { toolsListChanged: true }, 99);
    await l.nth(1);
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(900);
    await l.ended;
    const last = l.messages.at(-1)!;
    expect(last).toMatchObject({ jsonrpc: '2.0', id: 99, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 99 } } });
    expect(schema.check('SubscriptionsListenResultResponse', last)).toEqual([]);
    expect(methods(l)).toEqual(['notifications/subscriptions/acknowledged', 'response']);
  });

  it('closes a stream whose client does not take the result within the grace period (1 s), so shutdown never hangs', async () => {
    const t = await appWith([EchoTool], { subscriptions: { keepAliveMs: 100, maxBufferedBytes: 64 * 1024 * 1024 } });
    const bus = t.app.get<InProcessEventBus>(McpEventBus);
    const l = await listen(t.server, { toolsListChanged: true }, 'stuck');
    await l.nth(1);
    l.pause();
    // More than the kernel buffers take (megabytes on loopback), so the result waits behind data in this process.
    for (let i = 0; i < 80_000; i++) await bus.publish({ kind: 'toolsListChanged' });
    const started = Date.now();
    await t.close();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(10_000); // without the grace period it waited for the client for ever
    l.resume();
    await l.ended;
    expect(l.messages.length).toBeLessThan(80_001);
    expect(l.messages.every((m) => m.method !== undefined)).toBe(true); // the result never got through: the connection was closed
  }, 30_000);
});

describe('the legacy era: resources/subscribe and resources/unsubscribe, as far as a stateless server goes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWith([EchoTool, ProjectResource]);
  });
  afterAll(() => t.close());

  it.each(['resources/subscribe', 'resources/unsubscribe'])('acknowledges %s with an empty result', async (method) => {
    const res = await legacyPost(t.server, { jsonrpc: '2.0', id: 'legacy-sub', method, params: { uri: 'file:///project' } });
    expect(res.status).toBe(200);
    expect(res.messages).toEqual([{ jsonrpc: '2.0', id: 'legacy-sub', result: {} }]);
  });

  // A legacy client reads a JSON-RPC error only from a 2xx answer (docs/eras.md).
  it.each(['resources/subscribe', 'resources/unsubscribe'])('refuses %s for a uri that is not a URI, or no uri (-32602)', async (method) => {
    for (const params of [{ uri: 'not a uri' }, {}]) {
      const res = await legacyPost(t.server, { jsonrpc: '2.0', id: 'bad-sub', method, params });
      expect(res.status).toBe(200);
      expect(res.messages[0]).toMatchObject({ id: 'bad-sub', error: { code: -32602 } });
    }
  });

  it('advertises no listChanged or subscribe in initialize: nothing would reach a legacy client', async () => {
    const res = await legacyPost(t.server, initialize(), legacyHeaders(null));
    expect(res.messages[0]!.result.capabilities).toEqual({ tools: {}, logging: {}, resources: {} });
    const discover = await post(t.server, rpc('server/discover'));
    expect(discover.body.result.capabilities.resources).toEqual({ listChanged: true, subscribe: true });
  });

  it('opens no stream for updates: subscriptions/listen is not a legacy method, and GET at the mount is 405', async () => {
    const listenRes = await legacyPost(t.server, {
      jsonrpc: '2.0',
      id: 'legacy-listen',
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true } },
    });
    expect(listenRes.status).toBe(200);
    expect(listenRes.messages[0]).toMatchObject({ id: 'legacy-listen', error: { code: -32601 } });
    const port = (t.server.address() as AddressInfo).port;
    const get = await fetch(`http://127.0.0.1:${port}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('answers -32601 on a mount without resources', async () => {
    const bare = await appWith([EchoTool]);
    try {
      const res = await legacyPost(bare.server, { jsonrpc: '2.0', id: 'no-res', method: 'resources/subscribe', params: { uri: 'file:///project' } });
      expect(res.status).toBe(200);
      expect(res.messages[0]).toMatchObject({ id: 'no-res', error: { code: -32601 } });
    } finally {
      await bare.close();
    }
  });
});

describe('what a mount without the modern era advertises', () => {
  it('no listChanged or subscribe in initialize when only the legacy era is served; subscribe is still acknowledged', async () => {
    const t = await appWith([EchoTool, ProjectResource], { eras: 'legacy' });
    try {
      const res = await legacyPost(t.server, initialize(), legacyHeaders(null));
      expect(res.messages[0]!.result.capabilities).toEqual({ tools: {}, logging: {}, resources: {} });
      const subscribe = await legacyPost(t.server, { jsonrpc: '2.0', id: 'legacy-only', method: 'resources/subscribe', params: { uri: 'file:///project' } });
      expect(subscribe.messages).toEqual([{ jsonrpc: '2.0', id: 'legacy-only', result: {} }]);
    } finally {
      await t.close();
    }
  });
});

/** A bus a user supplies: an in-process one that records what passes through it. */
@Injectable()
class RecordingBus implements McpEventBus {
  static readonly seen: string[] = [];
  private readonly inner = new InProcessEventBus();
  async publish(event: McpChangeEvent): Promise<void> {
    RecordingBus.seen.push(`publish ${event.kind}`);
    await this.inner.publish(event);
  }
  async subscribe(listener: McpChangeListener): Promise<McpUnsubscribe> {
    RecordingBus.seen.push('subscribe');
    const unsubscribe = await this.inner.subscribe(listener);
    return () => {
      RecordingBus.seen.push('unsubscribe');
      return unsubscribe();
    };
  }
}

describe('a custom event bus', () => {
  afterEach(() => {
    RecordingBus.seen.length = 0;
  });

  async function roundTrip(t: TestApp): Promise<void> {
    const injected = t.app.get<McpEventBus>(McpEventBus);
    const l = await listen(t.server, { toolsListChanged: true }, 'custom');
    await l.nth(1);
    await injected.publish({ kind: 'toolsListChanged' });
    expect((await l.nth(2)).method).toBe('notifications/tools/list_changed');
    l.close();
    await until(() => RecordingBus.seen.includes('unsubscribe'), 'the unsubscribe');
    expect(RecordingBus.seen).toEqual(['subscribe', 'publish toolsListChanged', 'unsubscribe']);
  }

  it('is given as the eventBus option (a class, from the host providers) and is what the application injects', async () => {
    const t = await appWith([EchoTool, RecordingBus], { eventBus: RecordingBus });
    try {
      // The token gives a stand-in for the host's instance (late-bound: docs/subscriptions.md), which roundTrip drives.
      expect(t.app.get(McpEventBus)).toBeInstanceOf(RecordingBus);
      await roundTrip(t);
    } finally {
      await t.close();
    }
  });

  it('replaces the default through overrideProvider', async () => {
    const t = await createTestApp({ providers: [EchoTool], override: (b) => b.overrideProvider(McpEventBus).useValue(new RecordingBus()) });
    try {
      expect(t.app.get(McpEventBus)).toBeInstanceOf(RecordingBus);
      await roundTrip(t);
    } finally {
      await t.close();
    }
  });
});

describe('a listen filter whose acknowledgment is exactly maxBufferedBytes', () => {
  it('is served (the bound is inclusive); one byte more is refused (400 + -32602, listen_filter_too_large)', async () => {
    const MAX = 4096;
    const t = await appWith([EchoTool, ProjectResource], { subscriptions: { keepAliveMs: 60_000, maxBufferedBytes: MAX } });
    // The acknowledged filter is {"resourceSubscriptions":["<uri>"]}: 30 bytes besides the URI.
    const filterOf = (bytes: number) => ({ resourceSubscriptions: [`file:///project/${'a'.repeat(bytes - 30 - 'file:///project/'.length)}`] });
    expect(Buffer.byteLength(JSON.stringify(filterOf(MAX)))).toBe(MAX);
    try {
      const over = await post(t.server, rpc('subscriptions/listen', { notifications: filterOf(MAX + 1) }, 'one-over'));
      expect(over.status).toBe(400);
      expect(over.body).toMatchObject({ error: { code: -32602, data: { reason: 'listen_filter_too_large', filterBytes: MAX + 1, maxBytes: MAX } } });
      const l = await listen(t.server, filterOf(MAX), 'at-the-bound');
      expect(l.status).toBe(200);
      expect((await l.nth(1)).params.notifications).toEqual(filterOf(MAX));
      l.close();
    } finally {
      await t.close();
    }
  });
});

import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';

import type { McpEventBus } from '../../lib/contracts/mcp-event-bus.js';
import type { McpResolvedOptions } from '../../lib/options/mcp-module-options.interface.js';
import type { AnswerStream } from '../../lib/response/answer-stream.js';
import { MountClosing } from '../../lib/response/mount-closing.js';
import { InProcessEventBus } from '../../lib/subscriptions/in-process-event-bus.js';
import { ListenStreams } from '../../lib/subscriptions/listen-streams.js';
import { until } from '../support/wait.js';

/** An open answer that takes everything at once (nothing waits for its reader). */
const answer = () =>
  ({ signal: new AbortController().signal, buffered: 0, queue: () => true, onKeepAlive: () => undefined, abandon: () => undefined }) as unknown as AnswerStream;

function streams(maxStreams: number, maxOpenBytes: number, bus: McpEventBus = new InProcessEventBus(), shutdown = new MountClosing({ shutdownGraceMs: 10_000 })) {
  const options = { path: '/mcp', subscriptions: { maxStreams, maxOpenBytes, maxBufferedBytes: 1024, subscribeTimeoutMs: 50, keepAliveMs: 1000 } };
  return new ListenStreams(bus, options as unknown as McpResolvedOptions, shutdown);
}

describe('ListenStreams bounds', () => {
  it('opens streams holding exactly maxOpenBytes together, refuses one byte more, and gives the bytes back as they end', async () => {
    const open = streams(10, 1000);
    const first = await open.open('a', { toolsListChanged: true }, answer(), 600);
    await open.open('b', { toolsListChanged: true }, answer(), 400);
    expect(open.held).toBe(1000);
    await expect(open.open('c', { toolsListChanged: true }, answer(), 1)).rejects.toMatchObject({ data: { reason: 'listen_bytes_limit' } });
    first.end('gone');
    await until(() => open.held === 400, 'the ended stream to give back its bytes');
    expect(open.size).toBe(1);
  });

  it('says in its byte refusal what the open streams hold, the bound, and what the refused stream would hold', async () => {
    const open = streams(10, 1000);
    await open.open('a', { toolsListChanged: true }, answer(), 600);
    await expect(open.open('b', { toolsListChanged: true }, answer(), 401)).rejects.toMatchObject({
      message:
        'Internal error: the listen streams open on this server already hold 600 of the 1000 bytes they may, and this one would hold 401; retry later, or listen with a smaller request.',
    });
    expect(open.held).toBe(600);
  });

  it('opens exactly maxStreams streams and refuses one more', async () => {
    const open = streams(2, 1000);
    await open.open('a', { toolsListChanged: true }, answer(), 1);
    await open.open('b', { toolsListChanged: true }, answer(), 1);
    await expect(open.open('c', { toolsListChanged: true }, answer(), 1)).rejects.toMatchObject({ data: { reason: 'too_many_listen_streams' } });
    expect(open.size).toBe(2);
  });

  it('ends a stream whose subscription the bus did not confirm in time, giving back its place and bytes', async () => {
    const silent: McpEventBus = { publish: async () => undefined, subscribe: () => new Promise<never>(() => undefined) };
    const open = streams(1, 1000, silent);
    await expect(open.open('a', { toolsListChanged: true }, answer(), 100)).rejects.toMatchObject({ data: { reason: 'event_bus_unavailable' } });
    await until(() => open.size === 0 && open.held === 0, 'the refused stream to end');
  });
});

describe('ListenStreams timing', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('refuses a stream whose subscription the bus has not confirmed once subscribeTimeoutMs passed, not before', async () => {
    const silent: McpEventBus = { publish: async () => undefined, subscribe: () => new Promise<never>(() => undefined) };
    const open = streams(1, 1000, silent); // subscribeTimeoutMs: 50
    let refusal: unknown;
    void open.open('a', { toolsListChanged: true }, answer(), 100).catch((fault: unknown) => (refusal = fault));
    await jest.advanceTimersByTimeAsync(49);
    expect(refusal).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(refusal).toMatchObject({ data: { reason: 'event_bus_unavailable' } });
  });

  it.each<[string, 'before' | 'during' | 'after']>([
    ['open as the shutdown begins', 'after'],
    ['opened once the shutdown began (ended as soon as it is acknowledged)', 'before'],
    ['whose subscription the bus confirms once the shutdown began (ended by the shutdown, not again as it is acknowledged)', 'during'],
  ])('ends a stream %s, cutting one whose response has not closed after 1 s, not before, once, beside one ended after it that closes at once', async (_case, begins) => {
    const abandon = jest.fn();
    const stuck = { ...answer(), whenClosed: () => new Promise<never>(() => undefined), abandon } as unknown as AnswerStream;
    const shutdown = new MountClosing({ shutdownGraceMs: 10_000 });
    const bus = new InProcessEventBus();
    let confirm!: () => void;
    const confirmed = new Promise<void>((resolve) => (confirm = resolve));
    const gated: McpEventBus = { publish: (event) => bus.publish(event), subscribe: (listener) => confirmed.then(() => bus.subscribe(listener)) };
    const open = streams(10, 1000, gated, shutdown);
    if (begins === 'before') shutdown.onModuleDestroy();
    const opening = open.open('a', { toolsListChanged: true }, stuck, 100);
    if (begins === 'during') shutdown.onModuleDestroy(); // the shutdown begins: its first hook
    confirm();
    const stream = await opening;
    // Ended after the stuck one: the shutdown waits for both, not the last ended.
    const prompt = await open.open('b', { toolsListChanged: true }, { ...answer(), whenClosed: () => Promise.resolve() } as unknown as AnswerStream, 100);
    if (begins === 'after') shutdown.onModuleDestroy();
    let done = false;
    void open.beforeApplicationShutdown().then(() => (done = true));
    expect([await stream.ended, await prompt.ended]).toEqual(['shutdown', 'shutdown']);
    await jest.advanceTimersByTimeAsync(999);
    expect([done, abandon.mock.calls.length]).toEqual([false, 0]);
    await jest.advanceTimersByTimeAsync(1);
    expect([done, abandon.mock.calls.length]).toEqual([true, 1]);
  });
});

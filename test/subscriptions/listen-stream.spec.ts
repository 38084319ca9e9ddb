import { setImmediate as tick } from 'node:timers/promises';

import { describe, expect, it } from '@jest/globals';

import type { AnswerStream } from '../../lib/response/answer-stream.js';
import { InProcessEventBus } from '../../lib/subscriptions/in-process-event-bus.js';
import { ListenStream } from '../../lib/subscriptions/listen-stream.js';
import { until } from '../support/wait.js';

/** An answer whose client has already gone: its signal aborted before the stream is built. */
function goneAnswer() {
  const controller = new AbortController();
  controller.abort();
  const sent: unknown[] = [];
  const answer = {
    signal: controller.signal,
    buffered: 0,
    queue: (json: string) => (sent.push(JSON.parse(json)), true),
    onKeepAlive: () => undefined,
    abandon: () => undefined,
  } as unknown as AnswerStream;
  return { answer, sent };
}

describe('a listen stream built on an answer whose client already left', () => {
  it('ends as gone at once, acknowledges nothing, and lets go of its subscription', async () => {
    const { answer, sent } = goneAnswer();
    const stream = new ListenStream('late', { toolsListChanged: true }, answer, { maxBufferedBytes: 1024, subscribeTimeoutMs: 1000 }, { take: () => true }, '/mcp');
    const bus = new InProcessEventBus();
    await stream.start(bus);
    expect(await Promise.race([stream.ended, tick().then(() => 'still open')])).toBe('gone');
    await until(() => bus.subscriberCount === 0, 'the subscription to be let go');
    await bus.publish({ kind: 'toolsListChanged' });
    expect(sent).toEqual([]);
  });
});

/** An open answer whose buffered byte count the test sets, with the keep-alive hook the stream registers. */
function heldAnswer() {
  const state = { buffered: 0, abandoned: false, keepAlive: undefined as (() => void) | undefined };
  const answer = {
    signal: new AbortController().signal,
    get buffered() {
      return state.buffered;
    },
    queue: () => true,
    onKeepAlive: (hook: () => void) => (state.keepAlive = hook),
    abandon: () => void (state.abandoned = true),
  } as unknown as AnswerStream;
  return { answer, state };
}

describe('a listen stream counting what waits for its reader', () => {
  it('keeps a stream holding exactly maxBufferedBytes, and drops it at one byte more', async () => {
    const { answer, state } = heldAnswer();
    const stream = new ListenStream('held', { toolsListChanged: true }, answer, { maxBufferedBytes: 1000, subscribeTimeoutMs: 1000 }, { take: () => true }, '/mcp');
    const bus = new InProcessEventBus();
    await stream.start(bus);
    state.buffered = 1000;
    state.keepAlive!();
    await tick();
    await tick();
    expect(state.abandoned).toBe(false);
    state.buffered = 1001;
    state.keepAlive!();
    expect(await stream.ended).toBe('gone');
    expect(state.abandoned).toBe(true);
    await until(() => bus.subscriberCount === 0, 'the dropped stream to unsubscribe');
  });

  it('takes what waits from the budget at each count, and gives all of it back when it ends', async () => {
    const { answer, state } = heldAnswer();
    let held = 0;
    const budget = { take: (bytes: number) => ((held += bytes), true) };
    const stream = new ListenStream('counted', { toolsListChanged: true }, answer, { maxBufferedBytes: 1000, subscribeTimeoutMs: 1000 }, budget, '/mcp');
    await stream.start(new InProcessEventBus());
    state.buffered = 700;
    state.keepAlive!();
    await until(() => held === 700, 'what waits to be counted');
    state.buffered = 300; // the socket took some
    state.keepAlive!();
    await until(() => held === 300, 'what the socket took to be given back');
    stream.end('gone');
    expect(await stream.ended).toBe('gone');
    expect(held).toBe(0);
  });
});

describe('a listen stream ended while its subscription is being confirmed', () => {
  it('keeps no event heard meanwhile: a bus that delivers more than 64 of them does not drop it, and it is still acknowledged', async () => {
    const { answer, state } = heldAnswer();
    const sent: { method: string }[] = [];
    (answer as unknown as { queue: (json: string) => boolean }).queue = (json) => (sent.push(JSON.parse(json) as { method: string }), true);
    let confirm!: () => void;
    let hear!: (event: unknown) => void;
    const bus = {
      publish: async () => undefined,
      subscribe: (listener: (event: unknown) => void) => ((hear = listener), new Promise<() => void>((resolve) => (confirm = () => resolve(() => undefined)))),
    };
    const stream = new ListenStream('ending', { toolsListChanged: true }, answer, { maxBufferedBytes: 1024, subscribeTimeoutMs: 1000 }, { take: () => true }, '/mcp');
    const started = stream.start(bus as never);
    await until(() => hear !== undefined, 'the stream to subscribe');
    stream.end('shutdown');
    for (let i = 0; i < 65; i++) hear({ kind: 'toolsListChanged' });
    confirm();
    await started;
    expect(await stream.ended).toBe('shutdown');
    expect(state.abandoned).toBe(false);
    expect(sent.map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged']);
  });
});

describe('a listen stream shut down while its subscription is being confirmed', () => {
  it('takes nothing from the budget for its acknowledgment once ended, nor drops the stream for it', async () => {
    const { answer, state } = heldAnswer();
    state.buffered = 2000; // what its acknowledgment would hold, past maxBufferedBytes
    let held = 0;
    const budget = { take: (bytes: number) => ((held += bytes), true) };
    let confirm!: () => void;
    const bus = { publish: async () => undefined, subscribe: () => new Promise<() => void>((resolve) => (confirm = () => resolve(() => undefined))) };
    const stream = new ListenStream('shut', { toolsListChanged: true }, answer, { maxBufferedBytes: 1000, subscribeTimeoutMs: 1000 }, budget, '/mcp');
    const started = stream.start(bus as never);
    await until(() => confirm !== undefined, 'the stream to subscribe');
    stream.end('shutdown');
    confirm();
    await started;
    await tick();
    await tick();
    expect(await stream.ended).toBe('shutdown');
    expect(held).toBe(0);
    expect(state.abandoned).toBe(false);
  });
});

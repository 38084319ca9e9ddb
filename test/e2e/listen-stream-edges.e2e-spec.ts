import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it, jest } from '@jest/globals';

import { McpEventBus, type McpChangeListener, type McpUnsubscribe } from '../../lib/index.js';
import { ListenStreams } from '../../lib/subscriptions/listen-streams.js';
import { EchoTool } from '../support/fixture-tools.js';
import { listen } from '../support/listen.js';
import { mirroredHeaders, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

/** A bus that hands each new subscriber `early` events before its subscribe resolves, as a replaying bus might. */
class EagerBus implements McpEventBus {
  readonly unsubscribed: number[] = [];
  constructor(private readonly early: number) {}
  async publish(): Promise<void> {}
  async subscribe(listener: McpChangeListener): Promise<McpUnsubscribe> {
    for (let i = 0; i < this.early; i++) listener({ kind: 'toolsListChanged' });
    return () => void this.unsubscribed.push(1);
  }
}

describe('a bus that delivers events before its subscribe resolves', () => {
  it('sends up to 64 of them after the acknowledgment, in order', async () => {
    const bus = new EagerBus(64);
    const t = await createTestApp({ providers: [EchoTool], options: { eventBus: bus } });
    try {
      const stream = await listen(t.server, { toolsListChanged: true }, 'eager');
      await stream.nth(65);
      expect(stream.messages[0]!.method).toBe('notifications/subscriptions/acknowledged');
      expect(stream.messages.slice(1).every((m) => m.method === 'notifications/tools/list_changed')).toBe(true);
      stream.close();
      await until(() => bus.unsubscribed.length === 1, 'the stream to unsubscribe');
    } finally {
      await t.close();
    }
  });

  it('drops the stream at the 65th, before any acknowledgment, and unsubscribes', async () => {
    const bus = new EagerBus(65);
    const t = await createTestApp({ providers: [EchoTool], options: { eventBus: bus } });
    try {
      // The drop may cut the connection before or after its status line.
      const stream = await listen(t.server, { toolsListChanged: true }, 'too-eager').catch(() => undefined);
      if (stream) await stream.ended;
      expect(stream?.messages ?? []).toEqual([]);
      await until(() => bus.unsubscribed.length === 1, 'the dropped stream to unsubscribe');
      expect(t.app.get(ListenStreams).size).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('a bus whose subscribe resolves after the client left', () => {
  it('lets go of the subscription once it comes', async () => {
    let confirm: (() => void) | undefined;
    const unsubscribed: string[] = [];
    class GatedBus implements McpEventBus {
      async publish(): Promise<void> {}
      subscribe(): Promise<McpUnsubscribe> {
        return new Promise((resolve) => (confirm = () => resolve(() => void unsubscribed.push('late'))));
      }
    }
    const t = await createTestApp({ providers: [EchoTool], options: { eventBus: new GatedBus(), subscriptions: { subscribeTimeoutMs: 10_000 } } });
    try {
      const body = rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, 'left-early');
      const port = (t.server.address() as AddressInfo).port;
      const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent: false, headers: mirroredHeaders(body) });
      req.on('error', () => undefined);
      req.end(JSON.stringify(body));
      await until(() => confirm !== undefined, 'the subscribe call');
      req.destroy(); // the client goes while subscribe is pending
      await until(() => t.app.get(ListenStreams).size === 0, 'the stream to end');
      expect(unsubscribed).toEqual([]);
      confirm!();
      await until(() => unsubscribed.length === 1, 'the late subscription to be let go');
    } finally {
      await t.close();
    }
  });
});

describe('a listen stream whose subscription the bus confirms once shutdown began', () => {
  it('still acknowledges its filter first, then ends with the listen result', async () => {
    let confirm: (() => void) | undefined;
    class GatedBus implements McpEventBus {
      async publish(): Promise<void> {}
      subscribe(): Promise<McpUnsubscribe> {
        return new Promise((resolve) => (confirm = () => resolve(() => undefined)));
      }
    }
    const ending = jest.spyOn(ListenStreams.prototype, 'beforeApplicationShutdown');
    const t = await createTestApp({ providers: [EchoTool], options: { eventBus: new GatedBus(), subscriptions: { subscribeTimeoutMs: 10_000 } } });
    let closed: Promise<void> | undefined;
    try {
      const opening = listen(t.server, { toolsListChanged: true }, 'confirmed-late');
      await until(() => confirm !== undefined, 'the subscribe call');
      closed = t.close();
      await until(() => ending.mock.calls.length === 1, 'the listen streams to be ended');
      confirm!();
      const stream = await opening;
      await stream.ended;
      expect(stream.messages.map((m) => m.method ?? 'response')).toEqual(['notifications/subscriptions/acknowledged', 'response']);
      expect(stream.messages[1]).toMatchObject({ id: 'confirmed-late', result: { resultType: 'complete' } });
    } finally {
      ending.mockRestore();
      await (closed ?? t.close());
    }
  });
});

import { describe, expect, it } from '@jest/globals';

import { isMcpChangeEvent, McpEventBus, type McpChangeListener, type McpUnsubscribe } from '../../lib/index.js';
import { ListenStreams } from '../../lib/subscriptions/listen-streams.js';
import { EchoTool } from '../support/fixture-tools.js';
import { listen } from '../support/listen.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';
import { nextEvent, until } from '../support/wait.js';

describe('an event bus that delivers a value whose fields throw when read', () => {
  it('isMcpChangeEvent says false rather than throwing', () => {
    const hostile = Object.defineProperty({}, 'kind', {
      enumerable: true,
      get: () => {
        throw new Error('getter');
      },
    });
    expect(isMcpChangeEvent(hostile)).toBe(false);
  });

  it("never throws into the bus from a listen stream's listener, and the stream goes on", async () => {
    class RawBus implements McpEventBus {
      readonly listeners = new Set<McpChangeListener>();
      async publish(event: never): Promise<void> {
        for (const listener of this.listeners) listener(event);
      }
      async subscribe(listener: McpChangeListener): Promise<McpUnsubscribe> {
        this.listeners.add(listener);
        return () => void this.listeners.delete(listener);
      }
    }
    const bus = new RawBus();
    const t = await createTestApp({ providers: [EchoTool], options: { eventBus: bus } });
    try {
      const stream = await listen(t.server, { toolsListChanged: true }, 'hostile');
      await stream.nth(1);
      const hostile = Object.defineProperty({}, 'kind', {
        enumerable: true,
        get: () => {
          throw new Error('getter');
        },
      });
      await expect(bus.publish(hostile as never)).resolves.toBeUndefined();
      await bus.publish({ kind: 'toolsListChanged' } as never);
      expect((await stream.nth(2)).method).toBe('notifications/tools/list_changed');
      stream.close();
    } finally {
      await t.close();
    }
  });
});

describe('an event bus whose unsubscribe fails', () => {
  it.each([
    ['rejects', () => Promise.reject(new Error('redis: connection lost'))],
    [
      'throws',
      (): Promise<void> => {
        throw new Error('redis: connection lost');
      },
    ],
  ])('reports it (mcp:seam:error) when a listen stream ends, and unsubscribes the next stream all the same (it %s)', async (_how, failing) => {
    const unsubscribed: string[] = [];
    let fail = true;
    class DownBus implements McpEventBus {
      async publish(): Promise<void> {}
      async subscribe(): Promise<McpUnsubscribe> {
        return () => (fail ? failing() : (unsubscribed.push('ok'), Promise.resolve()));
      }
    }
    const t = await createTestApp({ providers: [EchoTool], options: { eventBus: new DownBus() } });
    try {
      const reported = nextEvent('mcp:seam:error');
      const stream = await listen(t.server, { toolsListChanged: true }, 'down');
      await stream.nth(1);
      stream.close();
      expect(await reported).toEqual({
        mount: '/mcp',
        seam: 'McpEventBus',
        call: 'unsubscribe',
        exception: 'Error',
        error: 'Error: redis: connection lost',
        fault: expect.any(Error),
      });
      fail = false;
      const next = await listen(t.server, { toolsListChanged: true }, 'up');
      await next.nth(1);
      next.close();
      await until(() => unsubscribed.length === 1, 'the next stream to unsubscribe');
    } finally {
      await t.close();
    }
  });
});

describe('an event bus whose subscribe does not answer in time', () => {
  it('refuses the listen request with 503 event_bus_unavailable after subscribeTimeoutMs, and lets go of a subscription that comes later', async () => {
    let confirm: (() => void) | undefined;
    const unsubscribed: string[] = [];
    class SlowBus implements McpEventBus {
      async publish(): Promise<void> {}
      subscribe(): Promise<McpUnsubscribe> {
        return new Promise((resolve) => (confirm = () => resolve(() => void unsubscribed.push('late'))));
      }
    }
    const t = await createTestApp({ providers: [EchoTool], options: { eventBus: new SlowBus(), subscriptions: { subscribeTimeoutMs: 200 } } });
    try {
      const started = Date.now();
      const res = await post(t.server, rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, 'slow-bus'));
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: 'slow-bus',
        error: {
          code: -32603,
          message: 'Internal error: the event bus did not confirm the subscription within 200 ms (subscriptions.subscribeTimeoutMs); retry later.',
          data: { reason: 'event_bus_unavailable' },
        },
      });
      expect(t.app.get(ListenStreams).size).toBe(0);
      confirm!(); // the bus answers at last: the subscription nobody waits for is let go
      await until(() => unsubscribed.length === 1, 'the late subscription to be unsubscribed');
    } finally {
      await t.close();
    }
  });
});

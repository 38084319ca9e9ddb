import { describe, expect, it } from '@jest/globals';

import { isMcpChangeEvent, McpEventBus, type McpChangeListener, type McpUnsubscribe } from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { listen } from '../support/listen.js';
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

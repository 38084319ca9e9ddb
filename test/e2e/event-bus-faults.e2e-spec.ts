import { describe, expect, it } from '@jest/globals';

import { isMcpChangeEvent, McpEventBus, type McpChangeListener, type McpUnsubscribe } from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { listen } from '../support/listen.js';
import { createTestApp } from '../support/test-app.js';

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

import { describe, expect, it } from '@jest/globals';

import type { McpChangeEvent } from '../../lib/contracts/mcp-event-bus.js';
import { InProcessEventBus } from '../../lib/subscriptions/in-process-event-bus.js';

describe('InProcessEventBus', () => {
  it('delivers a frozen copy holding only the fields of a change event', async () => {
    const bus = new InProcessEventBus();
    const heard: McpChangeEvent[] = [];
    await bus.subscribe((event) => heard.push(event));
    const event = { kind: 'resourceUpdated', uri: 'file:///a', note: 'not a field' } as McpChangeEvent;
    await bus.publish(event);
    expect(heard).toEqual([{ kind: 'resourceUpdated', uri: 'file:///a' }]);
    expect(heard[0]).not.toBe(event);
    expect(Object.isFrozen(heard[0])).toBe(true);
  });

  it('delivers to every later subscriber when one throws', async () => {
    const bus = new InProcessEventBus();
    const heard: string[] = [];
    await bus.subscribe(() => {
      throw new Error('a faulty subscriber');
    });
    await bus.subscribe((event) => heard.push(event.kind));
    await expect(bus.publish({ kind: 'toolsListChanged' })).resolves.toBeUndefined();
    expect(heard).toEqual(['toolsListChanged']);
  });

  it('keeps one subscription per subscribe, even for one function, each ended by its own unsubscribe', async () => {
    const bus = new InProcessEventBus();
    const heard: string[] = [];
    const listener = (event: McpChangeEvent) => void heard.push(event.kind);
    const first = await bus.subscribe(listener);
    await bus.subscribe(listener);
    expect(bus.subscriberCount).toBe(2);
    await bus.publish({ kind: 'toolsListChanged' });
    expect(heard).toHaveLength(2);
    await first();
    expect(bus.subscriberCount).toBe(1);
    await bus.publish({ kind: 'promptsListChanged' });
    expect(heard).toEqual(['toolsListChanged', 'toolsListChanged', 'promptsListChanged']);
  });

  it('delivers an event to the subscribers of the moment it is published: one subscribed during its delivery hears only later events', async () => {
    const bus = new InProcessEventBus();
    const heard: string[] = [];
    // Each delivery subscribes one more listener (up to 8 here): delivering to those too need not end.
    const subscribing = (name: string) => (event: McpChangeEvent) => {
      heard.push(`${name} ${event.kind}`);
      if (bus.subscriberCount < 8) void bus.subscribe(subscribing(`${name}+`));
    };
    await bus.subscribe(subscribing('first'));
    await bus.publish({ kind: 'toolsListChanged' });
    expect(heard).toEqual(['first toolsListChanged']);
    await bus.publish({ kind: 'promptsListChanged' });
    expect(heard).toEqual(['first toolsListChanged', 'first promptsListChanged', 'first+ promptsListChanged']);
  });
});

import { isMcpChangeEvent, type McpChangeEvent, type McpChangeListener, type McpEventBus, type McpUnsubscribe } from '../contracts/mcp-event-bus.js';
import { quoted } from '../util/bounded.js';

/**
 * The default event bus: an event reaches the subscribers of this process only, each called synchronously, in
 * subscription order, before `publish` resolves. Behind a load balancer, give every instance a shared bus instead
 * (docs/subscriptions.md).
 * @publicApi
 */
export class InProcessEventBus implements McpEventBus {
  private readonly listeners = new Set<McpChangeListener>();

  /** How many subscriptions are open: one per open listen stream of this mount. */
  get subscriberCount(): number {
    return this.listeners.size;
  }

  /**
   * Delivers a copy of the event holding only its own fields, as a bus between processes would.
   * @throws {TypeError} (a rejection) when the value is not a change event, naming it
   */
  async publish(event: McpChangeEvent): Promise<void> {
    if (!isMcpChangeEvent(event)) {
      const kind = (event as { kind?: unknown } | null)?.kind;
      throw new TypeError(
        kind === 'resourceUpdated'
          ? `McpEventBus.publish: a resourceUpdated event's uri must be an absolute URI (RFC 3986: a scheme, and spaces and other reserved characters percent-encoded, as encodeURIComponent does for a segment), got ${quoted((event as { uri?: unknown }).uri, 200)}`
          : `McpEventBus.publish: not a change event (a kind of toolsListChanged, promptsListChanged, resourcesListChanged, or resourceUpdated with an absolute uri), got ${quoted(event, 200)}`,
      );
    }
    const copy: McpChangeEvent = Object.freeze(event.kind === 'resourceUpdated' ? { kind: event.kind, uri: event.uri } : { kind: event.kind });
    for (const listener of [...this.listeners]) {
      try {
        listener(copy);
      } catch {
        // A subscriber's fault must not keep the event from the others (the listen streams' listeners never throw).
      }
    }
  }

  async subscribe(listener: McpChangeListener): Promise<McpUnsubscribe> {
    const entry: McpChangeListener = (event) => listener(event); // one entry per subscription, even for one function
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }
}

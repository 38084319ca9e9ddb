import { fullFormats } from 'ajv-formats/dist/formats.js';

import { isPlainObject } from '../util/is-plain-object.js';

/**
 * The kinds of change event, one per notification a `subscriptions/listen` stream can carry: the tool, prompt and
 * resource lists changed, and one resource was updated. See docs/subscriptions.md.
 * @publicApi
 */
export const MCP_CHANGE_KINDS = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged', 'resourceUpdated'] as const;

/** One kind of change event. @publicApi */
export type McpChangeKind = (typeof MCP_CHANGE_KINDS)[number];

/**
 * A change the application publishes on the event bus: a plain JSON object, so a bus may carry it between
 * processes as it is. `resourceUpdated` names the resource (an absolute URI) that changed.
 * @publicApi
 */
export type McpChangeEvent =
  | { readonly kind: 'toolsListChanged' }
  | { readonly kind: 'promptsListChanged' }
  | { readonly kind: 'resourcesListChanged' }
  | { readonly kind: 'resourceUpdated'; readonly uri: string };

/** What an event-bus subscriber is called with, once per event published while it is subscribed. @publicApi */
export type McpChangeListener = (event: McpChangeEvent) => void;

/** Ends one subscription to the event bus; calling it again does nothing. @publicApi */
export type McpUnsubscribe = () => void | Promise<void>;

/**
 * The event bus: where the application publishes changes and every open listen stream hears them. The default
 * (`InProcessEventBus`) reaches the streams of this process; a shared one (Redis pub/sub, say) reaches those of
 * every instance, with no change to publishers or the listen streams. Inject it with `@Inject(McpEventBus)`: an
 * interface leaves Nest no class to inject by type. See docs/subscriptions.md.
 * @example
 * ```ts
 * constructor(@Inject(McpEventBus) private readonly bus: McpEventBus) {}
 * await this.bus.publish({ kind: 'resourceUpdated', uri: 'file:///project/config.json' });
 * ```
 * @publicApi
 */
export interface McpEventBus {
  /** Delivers an event to every subscriber (of every instance, for a shared bus); resolves once it is handed over. */
  publish(event: McpChangeEvent): Promise<void>;
  /**
   * Calls `listener` with every event published from the moment this resolves until the returned unsubscribe is
   * called. A listener must not throw; a bus may deliver events it cannot vouch for, so subscribers check them
   * ({@link isMcpChangeEvent}).
   */
  subscribe(listener: McpChangeListener): Promise<McpUnsubscribe>;
}

/** Injection token of the event bus, named like the interface so `@Inject(McpEventBus) bus: McpEventBus` reads as one. @publicApi */
export const McpEventBus = Symbol.for('nest-mcp.McpEventBus');

const uriFormat = fullFormats.uri as (value: string) => boolean;

/** Whether a value is an absolute URI (RFC 3986, the scheme included): the schema's `format: "uri"`, checked the same way. */
export function isAbsoluteUri(value: unknown): value is string {
  return typeof value === 'string' && uriFormat(value);
}

/**
 * Whether a value is a well-formed change event: a plain object of a known kind, with an absolute `uri` for
 * `resourceUpdated`. What a listen stream delivers, and what the default bus accepts, is checked with it. Total: a
 * value whose fields throw when read is not one (a listen stream's listener, which checks with it, never throws).
 * @publicApi
 */
export function isMcpChangeEvent(value: unknown): value is McpChangeEvent {
  try {
    if (!isPlainObject(value)) return false;
    const { kind, uri } = value; // each read once: a getter answers one thing
    if (!(MCP_CHANGE_KINDS as readonly unknown[]).includes(kind)) return false;
    return kind !== 'resourceUpdated' || isAbsoluteUri(uri);
  } catch {
    return false;
  }
}

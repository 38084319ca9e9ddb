import { isAbsoluteUri, type McpChangeEvent, type McpChangeKind } from '../contracts/mcp-event-bus.js';
import type { Capabilities } from '../protocol/capability-source.js';
import { isPlainObject } from '../util/is-plain-object.js';

/**
 * A listen request's `notifications` filter, as the schema's `SubscriptionFilter` has it: every field optional
 * and opt-in (absent or `false` is not asked for). The acknowledged filter has the same shape.
 */
export interface SubscriptionFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

/**
 * How each kind of change event is delivered: its notification, the filter field that asks for it, and the
 * capability flag that says this server delivers it (`<capability>.<flag>: true`). One row per kind.
 */
export const CHANGE_DELIVERY = {
  toolsListChanged: { notification: 'notifications/tools/list_changed', field: 'toolsListChanged', capability: 'tools', flag: 'listChanged' },
  promptsListChanged: { notification: 'notifications/prompts/list_changed', field: 'promptsListChanged', capability: 'prompts', flag: 'listChanged' },
  resourcesListChanged: { notification: 'notifications/resources/list_changed', field: 'resourcesListChanged', capability: 'resources', flag: 'listChanged' },
  resourceUpdated: { notification: 'notifications/resources/updated', field: 'resourceSubscriptions', capability: 'resources', flag: 'subscribe' },
} as const satisfies Record<McpChangeKind, { notification: string; field: keyof SubscriptionFilter; capability: string; flag: string }>;

/** Whether the advertised capabilities say a kind of change is delivered on listen streams. */
export function delivers(capabilities: Capabilities, kind: McpChangeKind): boolean {
  const { capability, flag } = CHANGE_DELIVERY[kind];
  return capabilities[capability]?.[flag] === true;
}

/**
 * The acknowledged filter: the subset of what a listen request asked for that this server delivers. A kind the
 * capabilities do not advertise is left out, and so is a `resourceSubscriptions` entry that is not an absolute URI
 * (duplicates are listed once).
 */
export function acknowledgedFilter(requested: unknown, capabilities: Capabilities): SubscriptionFilter {
  const asked = isPlainObject(requested) ? requested : {};
  const acknowledged: SubscriptionFilter = {};
  for (const kind of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const)
    if (asked[kind] === true && delivers(capabilities, kind)) acknowledged[kind] = true;
  if (Array.isArray(asked.resourceSubscriptions) && delivers(capabilities, 'resourceUpdated'))
    acknowledged.resourceSubscriptions = [...new Set(asked.resourceSubscriptions.filter(isAbsoluteUri))];
  return acknowledged;
}

/** The URIs that cover the last URI asked about ({@link coversUri}): an event's, asked about by every stream. */
let covering: { uri: string; by: readonly string[] } | undefined;

/** `uri`, then `uri` cut just before and just after each of its `/`. */
function coveringUris(uri: string): readonly string[] {
  if (covering?.uri === uri) return covering.by;
  const by = [uri];
  for (let slash = uri.indexOf('/'); slash >= 0; slash = uri.indexOf('/', slash + 1)) by.push(uri.slice(0, slash), uri.slice(0, slash + 1));
  covering = { uri, by };
  return by;
}

/**
 * Whether `uri` is a subscribed URI or a sub-resource of one: a subscribed URI that is `uri` cut just before, or
 * just after, one of its `/` (so `file:///project` covers `file:///project/src/main.rs`, never `file:///projects`).
 * Costs one set lookup per `/` of `uri`, however many URIs are subscribed; the cuts are made once per URI in a row.
 */
export function coversUri(subscribed: ReadonlySet<string>, uri: string): boolean {
  const by = coveringUris(uri);
  for (let i = 0; i < by.length; i++) if (subscribed.has(by[i]!)) return true;
  return false;
}

/** The notification a change event becomes on a listen stream, tagged with the stream's subscription id. */
export function changeNotification(event: McpChangeEvent, meta: Readonly<Record<string, unknown>>): { method: string; params: Record<string, unknown> } {
  const { notification } = CHANGE_DELIVERY[event.kind];
  return { method: notification, params: event.kind === 'resourceUpdated' ? { uri: event.uri, _meta: meta } : { _meta: meta } };
}

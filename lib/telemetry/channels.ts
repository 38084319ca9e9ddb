import diagnosticsChannel from 'node:diagnostics_channel';

import type { McpTaskStatus } from '../contracts/mcp-task-store.js';
import type { JsonRpcId } from '../contracts/request-record.js';
import type { Rejecter, RejectionReason } from '../errors/rejection-table.js';
import type { McpEra } from '../mcp.constants.js';

/**
 * Every telemetry event: one `node:diagnostics_channel` channel per key, whose message has exactly that shape.
 * Each names its `mount`: the path given to `McpModule.forRoot`, with a leading slash (`/mcp`), without a global
 * prefix. Publishing costs nothing without a subscriber.
 * @publicApi
 */
export interface McpTelemetryEvents {
  /**
   * A rejection was sent (one per rejection, by the rejection sender). `mount` is absent only when the exception
   * filter answers for a host controller in a module that imports no mount.
   */
  'mcp:wire:reject': {
    mount?: string;
    /** With `reason`, names the row of `REJECTION_TABLE` that answered. */
    rejecter: Rejecter;
    reason: RejectionReason;
    status: number;
    code: number;
    /** The JSON-RPC method (bounded), when the body was read far enough to know it. */
    method?: string;
    /**
     * The request id, when the body was read far enough to know it: match a refusal to a client's request (of a
     * refused JSON-RPC response, the id of the server's input request it answered, though its answer carries none). A
     * string id is bounded (256 characters, control characters escaped), as in `mcp:method:error`.
     */
    id?: JsonRpcId;
    /** The era the request was classified in, once it was. */
    era?: McpEra;
  };
  /** The fallthrough answered (a verb the mount does not serve, or a path below it); verb and path bounded. */
  'mcp:wire:fallthrough': { mount: string; verb: string; path: string; status: number };
  /** A fault past a method was contained (answered -32603). `fault` is what was thrown, for operators only; `mount` as for a rejection. */
  'mcp:method:error': { mount?: string; method?: string; id?: JsonRpcId; era?: McpEra; exception: string; error: string; fault: unknown };
  /** The auth provider faulted; contained and answered 500, never treated as a pass. `fault` is what it threw. */
  'mcp:auth:error': { mount: string; exception: string; error: string; fault: unknown };
  /** A tool run began. */
  'mcp:tool:start': { mount: string; tool: string; action?: string; era: McpEra };
  /**
   * A tool run ended; `isError` when it ended with an `isError` result or by a throw (a JSON-RPC error, a task's
   * stop), not when it asked the client for input (`mcp:mrtr:input_required` follows). A run that returned after its
   * signal aborted reports what it returned; one that threw then, `isError` without an `errorKind` (a task's end is
   * `mcp:task:status`). `errorKind` says who answered with an error: `dispatch` for the caller's (a gate, help,
   * `refuse()`, a refused `requestState`), `tool` for the tool's.
   */
  'mcp:tool:stop': {
    mount: string;
    tool: string;
    era: McpEra;
    action?: string;
    durationMs: number;
    isError: boolean;
    errorKind?: 'dispatch' | 'tool';
  };
  /** A fault out of a tool run was contained (answered as a tool_fault result). `fault` is what was thrown, for operators only. */
  'mcp:tool:error': { mount: string; tool: string; action?: string; era: McpEra; exception: string; error: string; fault: unknown };
  /** The help tool answered. */
  'mcp:help:called': { mount: string; tool?: string; action?: string; found: boolean };
  /** A round of a multi round-trip request ended with an input-required result. */
  'mcp:mrtr:input_required': { mount: string; tool?: string; method: string; kinds: string[] };
  /**
   * A request was cancelled by its client before the final response: `by` says how, the stream closing (`close`) or
   * a legacy `notifications/cancelled` (`notification`, with its `reason` when it gave one, bounded to 200
   * characters). `id` is the request's, bounded as in `mcp:method:error`, when it was read.
   */
  'mcp:request:cancelled': { mount: string; method: string; id?: JsonRpcId; by: 'close' | 'notification'; reason?: string };
  /**
   * An answer its client did not take was cut off: the connection (HTTP/2: the stream) was closed, `waitingBytes`
   * freed. `bound` says why: no byte of it taken for `writeStallTimeoutMs`, or the mount's waiting answers past
   * `maxWaitingBytes` with its client the one that took a byte least recently.
   */
  'mcp:answer:stalled': { mount: string; method: string; waitingBytes: number; bound: 'writeStallTimeoutMs' | 'maxWaitingBytes' };
  /** A task (tasks extension) entered a status, once the store holds it: `working` when created, then each change. */
  'mcp:task:status': { mount: string; taskId: string; tool: string; action?: string; status: McpTaskStatus };
  /**
   * A task store's `update` failed (the run here keeps the status and writes it again before a request about the
   * task reads the store), or an event bus's `unsubscribe` did: each failure, also one a request answers for
   * (`tasks/cancel`). `fault` is what it threw, for operators only.
   */
  'mcp:seam:error': { mount: string; seam: 'McpTaskStore' | 'McpEventBus'; call: 'update' | 'unsubscribe'; taskId?: string; exception: string; error: string; fault: unknown };
}

/** A channel name. @publicApi */
export type McpChannel = keyof McpTelemetryEvents;

/** Every channel name, for subscribers that want them all (the telemetry logger, tests). @publicApi */
export const MCP_CHANNELS = [
  'mcp:wire:reject',
  'mcp:wire:fallthrough',
  'mcp:method:error',
  'mcp:auth:error',
  'mcp:tool:start',
  'mcp:tool:stop',
  'mcp:tool:error',
  'mcp:help:called',
  'mcp:mrtr:input_required',
  'mcp:request:cancelled',
  'mcp:answer:stalled',
  'mcp:task:status',
  'mcp:seam:error',
] as const satisfies readonly McpChannel[];

const channels = new Map(MCP_CHANNELS.map((name) => [name, diagnosticsChannel.channel(name)]));

/**
 * How an event names its mount: the mount's path as given to `McpModule.forRoot`, with a leading slash (`/mcp`,
 * `/admin/mcp`, `/` for the root), without a global prefix. Two mounts of one application never share it.
 */
export function mountName(path: string): string {
  return `/${path}`;
}

/** Publishes on a channel; `build` runs only when someone listens. */
export function publish<C extends McpChannel>(name: C, build: () => McpTelemetryEvents[C]): void {
  const channel = channels.get(name);
  if (channel?.hasSubscribers) channel.publish(build());
}

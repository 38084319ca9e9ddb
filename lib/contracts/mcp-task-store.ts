import type { JsonRpcError } from '../errors/json-rpc-codes.js';

/**
 * Every task status, in lifecycle order; `completed`, `failed` and `cancelled` are terminal.
 * Proven by: test/sweeps/task-statuses.sweep.e2e-spec.ts
 * @publicApi
 */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;

/** A task's status. @publicApi */
export type McpTaskStatus = (typeof TASK_STATUSES)[number];

/** The terminal statuses: a task in one never changes again. */
export const TERMINAL_STATUSES: ReadonlySet<McpTaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/**
 * One task as a task store keeps it: what `tasks/get` shows, plus who may see it and when it expires. Plain JSON
 * (a shared store may serialise it); the store gets a fresh copy on every write.
 * @publicApi
 */
export interface McpTaskRecord {
  readonly taskId: string;
  /** The auth subject of the call that created it (`null` without auth): only that subject sees the task. */
  readonly subject: string | null;
  /** The mount that created it (`/mcp`): only that mount serves it, even from a store several mounts share. */
  readonly mount: string;
  /** The tool (and action) that runs it, for operators. */
  readonly tool: string;
  readonly action?: string;
  readonly status: McpTaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** When the store drops it: creation plus `ttlMs`, in epoch milliseconds. */
  readonly expiresAt: number;
  /** While `input_required`: the outstanding input requests, by key. */
  readonly inputRequests?: Readonly<Record<string, { readonly method: string; readonly params: Readonly<Record<string, unknown>> }>>;
  /** Once `completed`: the tool's result. */
  readonly result?: Readonly<Record<string, unknown>>;
  /** Once `failed`: the JSON-RPC error. */
  readonly error?: Readonly<JsonRpcError>;
}

/**
 * Where tasks are kept between the call that creates one and the `tasks/get` that reads it. The default,
 * `InProcessTaskStore`, keeps them in this process; a shared store (Redis, say) lets any instance answer
 * `tasks/get`. A task's running handler stays in the process that started it: route `tasks/update` and
 * `tasks/cancel` there by the `Mcp-Name` header (the task id). See docs/tasks.md.
 * @publicApi
 */
export interface McpTaskStore {
  /** Stores a new task; resolves `true` once `get` finds it, `false` when the store is full (nothing stored). */
  create(record: McpTaskRecord): Promise<boolean>;
  /** The task stored under `taskId`, or undefined when there is none or it has expired (`expiresAt`). */
  get(taskId: string): Promise<McpTaskRecord | undefined>;
  /** Replaces a stored task; a no-op when it is gone (expired). */
  update(record: McpTaskRecord): Promise<void>;
}

/** Injection token of the task store, named like the interface so `@Inject(McpTaskStore) store: McpTaskStore` reads as one. @publicApi */
export const McpTaskStore = Symbol.for('nest-mcp.McpTaskStore');

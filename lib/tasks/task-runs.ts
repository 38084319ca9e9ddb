import { randomUUID } from 'node:crypto';

import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';

import { McpTaskStore, TERMINAL_STATUSES, type McpTaskRecord } from '../contracts/mcp-task-store.js';
import { capacityRefusal } from '../errors/capacity-refusal.js';
import { shuttingDown } from '../errors/shutting-down.js';
import type { InputKeys } from '../mrtr/input-keys.js';
import type { InputChecks } from '../mrtr/input-request.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { MountClosing } from '../response/mount-closing.js';
import { mountName } from '../telemetry/channels.js';
import { quiet } from '../util/quiet-promise.js';
import { withinTime } from '../util/within-time.js';
import { InProcessTaskStore } from './in-process-task-store.js';
import { TaskInputs } from './task-inputs.js';
import { checkedRecord, detailedTask, taskFields } from './task-record.js';
import { TaskResultBudget } from './task-result-budget.js';
import { TaskRun, type TaskRunHost } from './task-run.js';
import { taskElsewhere, taskNotFound, taskStoreUnavailable } from './tasks-extension.js';

/** What a call being made a task brings. */
export interface TaskStart {
  readonly tool: string;
  readonly action: string | undefined;
  /** The caller's auth subject, or undefined without auth. */
  readonly subject: string | undefined;
  /** The client capabilities of the creating call: what the task's input requests may ask for. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** The controller behind the handler's `signal`, now the task's. */
  readonly abort: AbortController;
  readonly checks: InputChecks;
  /** The bytes of the creating call's request, which its handler holds while it runs (`maxRunningBytes`). */
  readonly bytes: number;
  /** The input-request keys the execution has handed out before it became a task, if any. */
  readonly keys?: InputKeys;
}

/**
 * The tasks of this mount: creates them (each id a random UUID, bound to the caller's auth subject and to this
 * mount), keeps the live run of each whose handler runs here, and answers `tasks/get`, `tasks/update` and
 * `tasks/cancel` from the task store. Another subject's or another mount's task, an unknown id and an expired one
 * are the same "not found".
 * See docs/tasks.md.
 */
@Injectable()
export class TaskRuns implements OnModuleDestroy {
  private readonly live = new Map<string, TaskRun>();
  /** The bytes of the requests of the live runs, together. */
  private runningBytes = 0;
  /** What every run of this mount shares. */
  private readonly host: TaskRunHost;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    @Inject(McpTaskStore) private readonly store: McpTaskStore,
    /** Once the application shuts down, no task starts: its running ones were cancelled. */
    @Inject(MountClosing) private readonly shutdown: MountClosing,
  ) {
    this.host = {
      store,
      budget: new TaskResultBudget(options.tasks.maxResultBytes),
      mount: mountName(options.path),
      ended: (run) => {
        if (this.live.delete(run.record.taskId)) this.runningBytes -= run.bytes;
      },
    };
  }

  /** How many tasks have a handler running in this process. */
  get running(): number {
    return this.live.size;
  }

  /**
   * Creates the task of a call (synchronously: from here on its handler's input requests park the task) and
   * resolves with its CreateTaskResult once the store holds it.
   * @throws {McpMethodError} (the promise) a capacity refusal (503) when the store is full, or when the requests of
   * the running tasks would hold more than `maxRunningBytes` with this one's (then the task is never stored);
   * `shutting_down` (503) once the application shuts down; `task_store_unavailable` (503) when the store has not
   * stored it within `storeTimeoutMs`
   */
  create(start: TaskStart): { run: TaskRun; created: Promise<McpResult> } {
    const { ttlMs, pollIntervalMs, maxRunningBytes } = this.options.tasks;
    const held = this.runningBytes;
    const open = !this.shutdown.closing;
    const fits = held + start.bytes <= maxRunningBytes;
    const now = new Date();
    const record: McpTaskRecord = {
      taskId: randomUUID(),
      subject: start.subject ?? null,
      mount: this.host.mount,
      tool: start.tool,
      ...(start.action !== undefined && { action: start.action }),
      status: 'working',
      createdAt: now.toISOString(),
      lastUpdatedAt: now.toISOString(),
      ttlMs,
      pollIntervalMs,
      expiresAt: now.getTime() + ttlMs,
    };
    const inputs = new TaskInputs(start.checks, start.capabilities, () => run.inputsChanged(), start.keys);
    const run: TaskRun = new TaskRun({ record, abort: start.abort, inputs, bytes: start.bytes, admitted: open && fits }, this.host);
    if (open && fits) {
      this.live.set(record.taskId, run);
      this.runningBytes += start.bytes;
    }
    const created = quiet(
      this.answered(run.stored, 'create').then(
        (stored) => {
          if (stored) return { resultType: 'task', ...taskFields(run.record) };
          run.discard();
          if (!open) throw shuttingDown('no task can start');
          if (!fits)
            throw capacityRefusal(
              'task_bytes_limit',
              `the tasks running on this server already hold ${held} of the ${maxRunningBytes} bytes of requests they may, and this call's request has ${start.bytes}`,
            );
          throw capacityRefusal('task_limit', `this server holds as many tasks as it may (${this.storeCapacity()}each kept ${ttlMs} ms from its creation)`);
        },
        (fault: unknown) => {
          run.discard(); // a store that failed (a fault, contained as any other) or did not answer in time
          throw fault;
        },
      ),
    );
    return { run, created };
  }

  /** A task as `tasks/get` answers it. */
  async get(taskId: string, subject: string | undefined): Promise<Record<string, unknown>> {
    return detailedTask(await this.visible(taskId, subject));
  }

  /**
   * Hands a `tasks/update`'s answers to the task's outstanding input requests (other keys ignored); a no-op on an
   * ended task.
   * @throws {McpMethodError} `task_elsewhere` (503) when the task has not ended and its handler runs in no run here
   */
  async update(taskId: string, subject: string | undefined, responses: Readonly<Record<string, unknown>>): Promise<void> {
    (await this.runHere(taskId, subject))?.inputs.deliver(responses);
  }

  /**
   * Cancels a task, resolving once the store holds its `cancelled` status (so a `tasks/get` after the
   * acknowledgment reads it); a no-op on an ended one. Rejects with the store's fault when the store failed to take
   * the status (a contained fault, never the acknowledgment: the store still holds an earlier status).
   * @throws {McpMethodError} `task_elsewhere` (503) when the task has not ended and its handler runs in no run here;
   * `task_store_unavailable` (503) when the store has not taken the status within `storeTimeoutMs` (it is still written)
   */
  async cancel(taskId: string, subject: string | undefined): Promise<void> {
    const run = await this.runHere(taskId, subject);
    run?.cancel();
    if (run) await this.answered(run.written(), 'update');
  }

  /** Aborts every running handler, and refuses tasks from now on (the application is shutting down). */
  onModuleDestroy(): void {
    for (const run of [...this.live.values()]) run.cancel('The server shut down.');
  }

  /** The store's bound as a refusal quotes it: an in-process store's `maxTasks` (whoever built it), else nothing. */
  private storeCapacity(): string {
    return this.store instanceof InProcessTaskStore ? `${this.store.maxTasks}, ` : '';
  }

  /**
   * The run here of a task this caller may see (one that ended meanwhile included: acting on it is a no-op), or
   * undefined when the task has ended. A run stays live until the store holds its last status, so a stored status
   * that has not ended names a run elsewhere.
   */
  private async runHere(taskId: string, subject: string | undefined): Promise<TaskRun | undefined> {
    // Looked up before the read too: a run that ends here while the store is read leaves the live runs, and the
    // record read may predate its end; it ended here, so the request is acknowledged, not sent elsewhere.
    const before = this.live.get(taskId);
    const record = await this.visible(taskId, subject);
    const run = this.live.get(taskId) ?? before;
    if (!run && !TERMINAL_STATUSES.has(record.status)) throw taskElsewhere(taskId);
    return run;
  }

  /** The stored task, once a status of its run here that the store failed to take is written again. */
  private async visible(taskId: string, subject: string | undefined): Promise<McpTaskRecord> {
    const run = this.live.get(taskId);
    if (run && this.sees(run.record, subject)) await this.answered(run.resave(), 'update');
    const record = checkedRecord(taskId, await this.answered(this.store.get(taskId), 'get'));
    if (!record || !this.sees(record, subject)) throw taskNotFound(taskId);
    return record;
  }

  /** A store call's promise, refused with `task_store_unavailable` once `storeTimeoutMs` pass before it settles. */
  private answered<T>(pending: Promise<T>, call: 'create' | 'get' | 'update'): Promise<T> {
    const ms = this.options.tasks.storeTimeoutMs;
    return withinTime(pending, ms, () => taskStoreUnavailable(call, ms));
  }

  /** Whether a caller sees a task: its subject's and this mount's. */
  private sees(record: McpTaskRecord, subject: string | undefined): boolean {
    return record.subject === (subject ?? null) && record.mount === this.host.mount;
  }
}

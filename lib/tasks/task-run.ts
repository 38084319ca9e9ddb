import { TERMINAL_STATUSES, type McpTaskRecord, type McpTaskStatus, type McpTaskStore } from '../contracts/mcp-task-store.js';
import { PASSES_CONTAINMENT, faultKind } from '../errors/fault-containment.js';
import { JSON_RPC_CODES, type JsonRpcError } from '../errors/json-rpc-codes.js';
import { isMethodError } from '../errors/mcp-method.error.js';
import { publish } from '../telemetry/channels.js';
import { bounded } from '../util/bounded.js';
import { quiet } from '../util/quiet-promise.js';
import type { TaskInputs } from './task-inputs.js';
import type { TaskResultBudget } from './task-result-budget.js';

/**
 * Why a task's handler was stopped (cancelled, expired, shut down): its `signal`'s reason, and what its pending
 * input requests reject with. Not a fault: it passes containment, and the task has its status already.
 */
export class TaskEnded extends Error {
  override readonly name = 'TaskEnded';
  readonly [PASSES_CONTAINMENT] = true;
}

/** What every task run of one mount shares. */
export interface TaskRunHost {
  readonly store: McpTaskStore;
  readonly budget: TaskResultBudget;
  /** What its events name the mount. */
  readonly mount: string;
  /** Told when a run ends (a terminal status, its expiry, or discarded); may be told more than once. */
  ended(run: TaskRun): void;
}

/** One task's own part of its run. */
export interface TaskRunInit {
  /** Its first record (`working`). */
  readonly record: McpTaskRecord;
  /** The controller behind its handler's `signal`. */
  readonly abort: AbortController;
  readonly inputs: TaskInputs;
  /** The bytes of its creating call's request, which its handler holds while it runs. */
  readonly bytes: number;
  /** False when a bound on its mount's tasks refused it: never stored. */
  readonly admitted: boolean;
}

/**
 * One task whose handler runs in this process: its current record, written through to the task store in order,
 * the abort controller behind its handler's `signal`, and its input channel. Terminal statuses are final: a
 * result that arrives after a cancellation is dropped. It ends (and leaves the live runs) once the store holds its
 * terminal status (a status the store failed to take is kept and written again: {@link TaskRun.resave}), or at its
 * expiry, which aborts a handler still running.
 */
export class TaskRun {
  private current: McpTaskRecord;
  /** Expired, or never stored: it changes no more, and announces nothing. */
  private dropped = false;
  /** Stored too late and written `failed` there: nothing of it is written after. */
  private withdrawn = false;
  private writes: Promise<unknown>;
  /** The write of the last status: rejects when the store failed to take it (`writes` never rejects). */
  private lastWrite: Promise<unknown>;
  /** The last status, when the store failed to take it: written again by {@link resave}. */
  private unsaved: McpTaskRecord | undefined;
  /** The last status announced (`mcp:task:status`): a status is announced once the store holds it. */
  private announced: McpTaskStatus | undefined;
  private readonly expiry: NodeJS.Timeout;
  /** Resolves true once the store holds the task, false when it was full. */
  readonly stored: Promise<boolean>;
  readonly abort: AbortController;
  readonly inputs: TaskInputs;
  readonly bytes: number;

  constructor(
    { record, abort, inputs, bytes, admitted }: TaskRunInit,
    private readonly host: TaskRunHost,
  ) {
    this.current = record;
    this.abort = abort;
    this.inputs = inputs;
    this.bytes = bytes;
    this.stored = admitted ? Promise.resolve().then(() => host.store.create(record)) : Promise.resolve(false);
    this.writes = this.stored.then((stored) => stored && (this.dropped ? this.withdraw(record) : this.announce(record))).catch(() => undefined);
    this.lastWrite = this.writes;
    this.expiry = setTimeout(() => this.expire(), Math.max(0, record.expiresAt - Date.now()));
    this.expiry.unref();
  }

  get record(): McpTaskRecord {
    return this.current;
  }

  /** Whether it changes no more: a terminal status, or dropped. */
  get terminal(): boolean {
    return this.dropped || TERMINAL_STATUSES.has(this.current.status);
  }

  /** The outstanding input requests changed: `input_required` with them, or back to `working` without. */
  inputsChanged(): void {
    if (this.terminal) return;
    const waiting = this.inputs.waiting;
    this.change(waiting ? 'input_required' : 'working', { inputRequests: waiting ? this.inputs.outstanding() : undefined });
  }

  /**
   * The handler returned: `completed` with its result (an `isError` tool result included), or `failed` when the
   * result does not fit in what the budget keeps.
   */
  complete(result: Readonly<Record<string, unknown>>): void {
    if (this.terminal) return;
    const bytes = Buffer.byteLength(JSON.stringify(result));
    if (this.host.budget.admit(bytes, this.current.expiresAt)) return this.finish('completed', { result });
    const message = `Internal error: the task's result (${bytes} bytes) was not kept: with it, the results this server keeps for its tasks would exceed ${this.host.budget.maxBytes} bytes until earlier tasks expire.`;
    this.finish('failed', { error: { code: JSON_RPC_CODES.internalError, message, data: { reason: 'task_results_full' } }, statusMessage: message });
  }

  /** The handler threw past containment: `failed` with the JSON-RPC error (a method error as is, anything else -32603). */
  fail(thrown: unknown): void {
    const error: JsonRpcError = isMethodError(thrown)
      ? { code: thrown.code, message: thrown.message, ...(thrown.data !== undefined && { data: thrown.data }) }
      : { code: JSON_RPC_CODES.internalError, message: `Internal error: the task's tool failed (${faultKind(thrown)}).` };
    this.finish('failed', { error, statusMessage: error.message });
  }

  /** Cancels it: `cancelled` at once, its handler's signal aborted, its input requests rejected. */
  cancel(statusMessage = 'Cancelled by the client.'): void {
    this.finish('cancelled', { statusMessage });
  }

  /**
   * Resolves once every status so far is in the store: a read of the store then sees the last. Rejects with the
   * store's fault when it failed to take the last one (the store still holds an earlier status).
   */
  written(): Promise<void> {
    return this.lastWrite.then(() => undefined);
  }

  /**
   * Writes its last status again when the store failed to take it, so a request about the task reads what it is;
   * resolves at once otherwise. Rejects with the store's fault when it fails again.
   */
  resave(): Promise<void> {
    return this.unsaved === undefined ? Promise.resolve() : this.write(undefined);
  }

  private finish(status: McpTaskStatus, fields: Partial<McpTaskRecord>): void {
    if (this.terminal) return;
    this.change(status, Object.assign({}, fields, { inputRequests: undefined }));
    this.close(status === 'cancelled' ? 'the task was cancelled' : undefined);
  }

  /**
   * The store did not take it (full, failed, or not in time): its handler is stopped, and it leaves the live runs at
   * once, not once the store answers: it never had a status to see.
   */
  discard(): void {
    this.dropped = true;
    this.close('the task could not be stored');
    this.end();
  }

  /**
   * The store took the task after it was dropped (its call refused when the store did not answer in time, or the
   * task expired first): the stored record, its first with `failed`, says so, not a `working` that nothing will ever
   * change, nor a status its handler reached meanwhile (those writes are skipped).
   */
  private withdraw(first: McpTaskRecord): Promise<void> {
    this.withdrawn = true;
    const message = 'Internal error: the task store took this task too late (its call had been refused, or it had expired); its handler was stopped.';
    const error = { code: JSON_RPC_CODES.internalError, message, data: { reason: 'task_store_unavailable' } };
    return this.host.store.update({ ...first, status: 'failed', statusMessage: message, error, lastUpdatedAt: new Date().toISOString() });
  }

  private expire(): void {
    const running = !this.terminal;
    this.dropped = true;
    this.close(running ? 'the task expired' : undefined);
    // At once, not once its writes settle: the store has dropped it, so no status of it names a run, and a write the
    // store never settles must not hold its place among the running tasks for ever.
    this.end();
  }

  /** Leaves the live runs (once its last status is in the store, or at its expiry), its expiry no longer needed. */
  private end(): void {
    clearTimeout(this.expiry);
    this.host.ended(this);
  }

  private close(abortReason: string | undefined): void {
    if (abortReason !== undefined) {
      const reason = new TaskEnded(abortReason);
      this.abort.abort(reason);
      this.inputs.close(reason);
    } else this.inputs.close(new TaskEnded(`the task is ${this.current.status}: its context can no longer ask for input`));
    // Once its last status is in the store: until then the stored record has not ended, and the run must be found.
    // A status the store failed to take keeps the run until a resave succeeds, or its expiry.
    void this.writes.then(() => this.unsaved === undefined && this.end());
  }

  private change(status: McpTaskStatus, fields: Partial<McpTaskRecord>): void {
    const next: Record<string, unknown> = Object.assign<Record<string, unknown>, object, object, object>({}, this.current, fields, {
      status,
      lastUpdatedAt: new Date().toISOString(),
    });
    for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
    this.current = next as unknown as McpTaskRecord;
    void this.write(this.current);
  }

  /**
   * Writes a record (`undefined`: the one the store failed to take, if any still is) after every earlier write, and
   * announces its status once the store holds it.
   */
  private write(given: McpTaskRecord | undefined): Promise<void> {
    const write = this.writes.then(async () => {
      const record = given ?? this.unsaved;
      if (record === undefined || !(await this.stored) || this.withdrawn) return; // a task the store never took (in time) is never written
      try {
        await this.host.store.update(record);
      } catch (fault) {
        if (record === this.current) this.unsaved = record;
        const { mount } = this.host;
        publish('mcp:seam:error', () => ({
          mount,
          seam: 'McpTaskStore',
          call: 'update',
          taskId: record.taskId,
          exception: faultKind(fault),
          error: bounded(fault, 200),
          fault,
        }));
        throw fault;
      }
      this.unsaved = undefined; // writes go in order: the store now holds this or a later status
      this.announce(record);
      if (this.terminal && record === this.current) this.end();
    });
    this.lastWrite = quiet(write);
    this.writes = write.catch(() => undefined);
    return write;
  }

  private announce({ taskId, tool, action, status }: McpTaskRecord): void {
    if (status === this.announced) return;
    this.announced = status;
    const mount = this.host.mount;
    publish('mcp:task:status', () => ({ mount, taskId, tool, ...(action !== undefined && { action }), status }));
  }
}

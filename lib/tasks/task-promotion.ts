import type { McpRequestRecord } from '../contracts/request-record.js';
import { META_KEYS } from '../mcp.constants.js';
import type { InputChannel } from '../mrtr/input-channel.js';
import type { InputKind } from '../mrtr/input-kinds.js';
import type { InputChecks } from '../mrtr/input-request.js';
import { MrtrRound } from '../mrtr/mrtr-round.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { requestFootprint } from '../protocol/request-footprint.js';
import { quiet, rejected, whenSettled } from '../util/quiet-promise.js';
import type { TaskRun } from './task-run.js';
import type { TaskRuns } from './task-runs.js';

/** What a promotion needs from the call. */
export interface TaskPromotionInit {
  readonly tool: string;
  readonly action: string | undefined;
  readonly record: McpRequestRecord;
  /** The call's MRTR round: its input channel until the call becomes a task. */
  readonly round: InputChannel;
  /** The request's signal: it aborts the handler only until the call becomes a task. */
  readonly requestSignal: AbortSignal;
  readonly checks: InputChecks;
}

/**
 * One call that may become a task (a task-supporting tool, the extension declared): its handler starts in the
 * request, and `start()` (the call's start, or `ctx.startTask()`) makes it a task: the request is answered with
 * the CreateTaskResult, and from then on the handler's `signal` is the task's and its input requests park the task.
 * A handler that returns before `start()` answers the request as any call does. See docs/tasks.md.
 */
export class TaskPromotion {
  readonly abort = new AbortController();
  private task: { run: TaskRun; created: Promise<McpResult> } | undefined;
  private readonly onRequestAbort = () => this.abort.abort(this.init.requestSignal.reason);
  private requested!: () => void;
  private readonly wasRequested = new Promise<void>((resolve) => (this.requested = resolve));

  /** The input channel the call's contexts use: the round, then the task's. */
  readonly inputs: InputChannel;

  constructor(
    private readonly tasks: TaskRuns,
    private readonly init: TaskPromotionInit,
  ) {
    if (init.requestSignal.aborted) this.onRequestAbort();
    else init.requestSignal.addEventListener('abort', this.onRequestAbort, { once: true });
    const current = () => this.task?.run.inputs ?? init.round;
    this.inputs = {
      ask: (kind: InputKind, params: unknown, key: string | undefined) => current().ask(kind, params, key),
      get toolState() {
        return current().toolState;
      },
      set toolState(value: unknown) {
        current().toolState = value;
      },
      close: () => current().close(),
    };
  }

  /** The task's id, once the call is one. */
  get taskId(): string | undefined {
    return this.task?.run.record.taskId;
  }

  /** Makes the call a task (once; later calls return the same promise); resolves once the task is stored. */
  start(): Promise<void> {
    if (!this.task) {
      const round = this.init.round;
      if (this.abort.signal.aborted) return rejected(new Error('startTask() was called after the call was cancelled (its client went away)'));
      if (round instanceof MrtrRound && (round.inputRequired || round.refusal))
        return rejected(new Error('startTask() was called while an input request of the call was unanswered or refused; await (and handle) them first'));
      this.init.requestSignal.removeEventListener('abort', this.onRequestAbort);
      this.task = this.tasks.create({
        tool: this.init.tool,
        action: this.init.action,
        subject: this.init.record.auth?.subject,
        capabilities: (this.init.record.meta?.[META_KEYS.clientCapabilities] ?? {}) as Record<string, unknown>,
        abort: this.abort,
        checks: this.init.checks,
        bytes: requestFootprint(this.init.record),
        ...(round instanceof MrtrRound && { keys: round.keys }),
      });
      this.task.run.inputs.toolState = round.toolState;
      round.close();
      this.requested();
    }
    return quiet(this.task.created.then(() => undefined));
  }

  /**
   * Runs the handler: its own answer when it settles before `start()`; otherwise the CreateTaskResult, and its
   * eventual outcome settles the task.
   */
  async run(handler: () => Promise<McpResult>): Promise<McpResult> {
    const running = handler();
    await Promise.race([whenSettled(running), this.wasRequested]);
    if (!this.task) {
      this.init.requestSignal.removeEventListener('abort', this.onRequestAbort);
      return running;
    }
    const { run, created } = this.task;
    running.then(
      (result) => run.complete(result),
      (thrown: unknown) => run.fail(thrown),
    );
    try {
      return await created;
    } catch (refused) {
      this.abort.abort(refused);
      throw refused;
    }
  }
}

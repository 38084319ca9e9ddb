import type { InputChannel } from '../mrtr/input-channel.js';
import { InputKeys } from '../mrtr/input-keys.js';
import type { InputKind } from '../mrtr/input-kinds.js';
import type { InputChecks, InputRequest } from '../mrtr/input-request.js';
import { readAnswer, type AnswerPlace } from '../mrtr/input-responses.js';
import { undeclaredKind } from '../mrtr/mrtr-round.js';
import { rejected } from '../util/quiet-promise.js';

interface Pending {
  readonly kind: InputKind;
  readonly request: InputRequest;
  readonly resolve: (answer: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/** An answer in a `tasks/update`'s `inputResponses`. */
const inUpdate = (key: string): AnswerPlace => ({ key, label: `inputResponses[${JSON.stringify(key)}]`, path: ['params', 'inputResponses', key] });

/**
 * A task's input channel: an input request parks the task (`input_required`, the request shown by `tasks/get`)
 * until a `tasks/update` answers its key; the tool's promise then resolves with the answer, read as the kind asked
 * for. Keys are unique over the execution: a handler that became a task goes on with the keys its call's round
 * handed out. Capabilities are those of the call that created the task.
 */
export class TaskInputs implements InputChannel {
  toolState: unknown;
  private readonly pending = new Map<string, Pending>();
  private closedBy: Error | undefined;

  constructor(
    private readonly checks: InputChecks,
    private readonly capabilities: Readonly<Record<string, unknown>>,
    /** Called whenever the outstanding requests change. */
    private readonly changed: () => void,
    /** The keys handed out so far in this execution (the round's, when the handler started the task). */
    private readonly keys: InputKeys = new InputKeys(),
  ) {}

  ask(kind: InputKind, params: unknown, explicitKey: string | undefined): Promise<unknown> {
    if (this.closedBy) return rejected(this.closedBy);
    let opened: { key: string; request: InputRequest };
    try {
      opened = this.keys.open(kind, explicitKey, params, this.checks);
    } catch (thrown) {
      return rejected(thrown);
    }
    const { key, request } = opened;
    const undeclared = undeclaredKind(kind, request, this.capabilities);
    if (undeclared) return rejected(undeclared);
    const answered = new Promise<unknown>((resolve, reject) => this.pending.set(key, { kind, request, resolve, reject }));
    this.changed();
    return answered;
  }

  /** The outstanding requests, by key. */
  outstanding(): Record<string, InputRequest> {
    return Object.fromEntries([...this.pending].map(([key, { request }]) => [key, request]));
  }

  get waiting(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Delivers a `tasks/update`'s answers: every key outstanding gets its answer, other keys are ignored. All or
   * nothing: an answer that does not read as what was asked refuses the update (-32602) and delivers none.
   */
  deliver(responses: Readonly<Record<string, unknown>>): void {
    const read: [Pending, unknown, string][] = [];
    for (const [key, answer] of Object.entries(responses)) {
      const pending = this.pending.get(key);
      if (pending) read.push([pending, readAnswer(pending.kind, inUpdate(key), answer, pending.request.params, this.checks), key]);
    }
    if (read.length === 0) return;
    for (const [pending, answer, key] of read) {
      this.pending.delete(key);
      pending.resolve(answer);
    }
    this.changed();
  }

  /** Ends the channel (the task was cancelled or expired): outstanding requests reject with `reason`, later asks too. */
  close(reason: Error = new Error('the task ended')): void {
    this.closedBy ??= reason;
    for (const { reject } of this.pending.values()) reject(this.closedBy);
    this.pending.clear();
  }
}

/**
 * What the shutdown deadline ends, counted as under way until settled: an answer under way (`AnswerStream`), or work
 * a request does or waits on before it has one (a body read, the auth provider's decision).
 */
export interface WorkUnderWay {
  /** Settles once the work has ended, however. */
  whenClosed(): Promise<void>;
  /**
   * Ends the work with `shutting_down` and stops it at once (its run, listeners, timers and bytes let go); an answer
   * already sent is cut off where it still drains.
   */
  endForShutdown(): void;
}

/**
 * The shutdown deadline as a stage before the answer sees it (`MountClosing`, bound to this token by the module):
 * work a request waits on or does before it has an answer under way, bounded by `shutdownGraceMs`.
 */
export interface ShutdownDeadline {
  /**
   * `pending`, counted as under way while the shutdown waits; once the deadline passes it rejects with
   * `shutting_down` (503 + -32603), `what` saying what had not finished.
   */
  bounded<T>(pending: Promise<T>, what: string): Promise<T>;
  /** `work` is under way until {@link settled}; the deadline ends it (`endForShutdown`), at once when it has passed. */
  track(work: WorkUnderWay): void;
  /** `work` has ended (on its own, or ended by the deadline). */
  settled(work: WorkUnderWay): void;
}

/** Injection token of the {@link ShutdownDeadline}. */
export const ShutdownDeadline = Symbol.for('nest-mcp.ShutdownDeadline');

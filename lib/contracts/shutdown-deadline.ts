/**
 * The shutdown deadline as a stage before the answer sees it (`MountClosing`, bound to this token by the module):
 * work a request waits on before it has an answer under way, bounded by `shutdownGraceMs`.
 */
export interface ShutdownDeadline {
  /**
   * `pending`, counted as under way while the shutdown waits; once the deadline passes it rejects with
   * `shutting_down` (503 + -32603), `what` saying what had not finished.
   */
  bounded<T>(pending: Promise<T>, what: string): Promise<T>;
}

/** Injection token of the {@link ShutdownDeadline}. */
export const ShutdownDeadline = Symbol.for('nest-mcp.ShutdownDeadline');

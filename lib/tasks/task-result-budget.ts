/**
 * The bytes of task results this mount has stored and that have not expired, bounded by `tasks.maxResultBytes`:
 * a result that would take them over is not kept (its task fails instead), so finished tasks hold at most that
 * much whatever their count. Counted per instance, over the results it wrote.
 */
export class TaskResultBudget {
  private readonly kept = new Map<string, { readonly bytes: number; readonly expiresAt: number }>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** The bytes of results kept now (expired ones released). */
  get heldBytes(): number {
    this.release(Date.now());
    return this.held;
  }

  /** Counts a result of `bytes` until `expiresAt`, if it fits; false (nothing counted) when it does not. */
  admit(taskId: string, bytes: number, expiresAt: number): boolean {
    if (this.heldBytes + bytes > this.maxBytes) return false;
    this.kept.set(taskId, { bytes, expiresAt });
    this.held += bytes;
    return true;
  }

  // A walk over the kept results: at most one per finished task within its ttl, and only when a task finishes.
  private release(now: number): void {
    for (const [taskId, { bytes, expiresAt }] of this.kept)
      if (expiresAt <= now) {
        this.kept.delete(taskId);
        this.held -= bytes;
      }
  }
}

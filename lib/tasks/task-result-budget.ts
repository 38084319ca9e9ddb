/**
 * The bytes of task results this mount has stored and that have not expired, bounded by `tasks.maxResultBytes`:
 * a result that would take them over is not kept (its task fails instead), so finished tasks hold at most that
 * much whatever their count. Counted per instance, over the results it wrote.
 */
export class TaskResultBudget {
  /** The kept results as a min-heap by expiry, so releasing the expired ones costs only them. */
  private readonly kept: { readonly bytes: number; readonly expiresAt: number }[] = [];
  private held = 0;

  constructor(
    readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The bytes of results kept now (expired ones released). */
  get heldBytes(): number {
    const now = this.now();
    while (this.kept.length && this.kept[0]!.expiresAt <= now) this.held -= this.pop().bytes;
    return this.held;
  }

  /** Counts a result of `bytes` until `expiresAt`, if it fits; false (nothing counted) when it does not. */
  admit(bytes: number, expiresAt: number): boolean {
    if (this.heldBytes + bytes > this.maxBytes) return false;
    this.held += bytes;
    const heap = this.kept;
    heap.push({ bytes, expiresAt });
    for (let i = heap.length - 1, parent = (i - 1) >> 1; i > 0 && heap[parent]!.expiresAt > heap[i]!.expiresAt; i = parent, parent = (i - 1) >> 1)
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    return true;
  }

  private pop(): { readonly bytes: number; readonly expiresAt: number } {
    const heap = this.kept;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    heap[0] = last;
    for (let i = 0; ;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && heap[left]!.expiresAt < heap[least]!.expiresAt) least = left;
      if (right < heap.length && heap[right]!.expiresAt < heap[least]!.expiresAt) least = right;
      if (least === i) return top;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
  }
}

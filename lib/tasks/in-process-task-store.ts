import type { McpTaskRecord, McpTaskStore } from '../contracts/mcp-task-store.js';

/**
 * The default task store: a map in this process, bounded (`tasks.maxTasks`; one more is refused) and emptied as
 * tasks expire, each dropped by a timer at its `expiresAt`, so nothing outlives its ttl without a restart.
 * Proven by: test/e2e/tasks.e2e-spec.ts ("expiry", "store bound")
 * @publicApi
 */
export class InProcessTaskStore implements McpTaskStore {
  private readonly records = new Map<string, { record: McpTaskRecord; timer: NodeJS.Timeout }>();

  /** @param maxTasks how many tasks it holds at most */
  constructor(readonly maxTasks: number) {}

  /** How many tasks it holds now. */
  get size(): number {
    return this.records.size;
  }

  create(record: McpTaskRecord): Promise<boolean> {
    if (this.records.size >= this.maxTasks) return Promise.resolve(false);
    const timer = setTimeout(() => this.records.delete(record.taskId), Math.max(0, record.expiresAt - Date.now()));
    timer.unref();
    this.records.set(record.taskId, { record, timer });
    return Promise.resolve(true);
  }

  get(taskId: string): Promise<McpTaskRecord | undefined> {
    const entry = this.records.get(taskId);
    return Promise.resolve(entry && entry.record.expiresAt > Date.now() ? entry.record : undefined);
  }

  update(record: McpTaskRecord): Promise<void> {
    const entry = this.records.get(record.taskId);
    if (entry) entry.record = record;
    return Promise.resolve();
  }

  /**
   * Drops every task and its timer once the application has shut down: not before, since the mount still answers
   * `tasks/get` while its answers under way finish, and a finished or cancelled task must read as such meanwhile.
   */
  onApplicationShutdown(): void {
    for (const { timer } of this.records.values()) clearTimeout(timer);
    this.records.clear();
  }
}

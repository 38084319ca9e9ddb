import type { McpTaskRecord } from '../contracts/mcp-task-store.js';

/** The wire fields every task shape shares (the spec's `Task`). */
export function taskFields(record: McpTaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** A task as `tasks/get` answers it (the spec's `DetailedTask`): the payload of its status inlined, nothing else. */
export function detailedTask(record: McpTaskRecord): Record<string, unknown> {
  const detailed = taskFields(record);
  if (record.status === 'input_required') detailed.inputRequests = record.inputRequests ?? {};
  if (record.status === 'completed') detailed.result = record.result;
  if (record.status === 'failed') detailed.error = record.error;
  return detailed;
}

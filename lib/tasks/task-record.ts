import { TASK_STATUSES, type McpTaskRecord } from '../contracts/mcp-task-store.js';
import { bounded } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';

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

/**
 * What a task store's `get(taskId)` returned, checked before anything of it is answered: the record of that task,
 * its status one of the spec's, the fields `tasks/get` shows of the types it shows them, and its status's payload.
 * @throws {TypeError} naming the first problem (a contained fault: a store's bug never reaches a client as a task)
 */
export function checkedRecord(taskId: string, value: unknown): McpTaskRecord | undefined {
  if (value === undefined) return undefined;
  const problem = recordProblem(taskId, value);
  if (problem) throw new TypeError(`the task store's get(${JSON.stringify(taskId)}) returned ${problem}`);
  return value as McpTaskRecord;
}

function recordProblem(taskId: string, record: unknown): string | undefined {
  if (!isPlainObject(record)) return `${bounded(record, 60)}, not a task record`;
  if (record.taskId !== taskId) return `the record of another task (${bounded(record.taskId, 60)})`;
  if (!(TASK_STATUSES as readonly unknown[]).includes(record.status)) return `status ${bounded(record.status, 60)}, not one of ${TASK_STATUSES.join(', ')}`;
  for (const key of ['createdAt', 'lastUpdatedAt'] as const) if (typeof record[key] !== 'string') return `${key} ${bounded(record[key], 60)}, not a string`;
  for (const key of ['ttlMs', 'pollIntervalMs'] as const) if (typeof record[key] !== 'number') return `${key} ${bounded(record[key], 60)}, not a number`;
  if (record.statusMessage !== undefined && typeof record.statusMessage !== 'string') return `statusMessage ${bounded(record.statusMessage, 60)}, not a string`;
  if (record.status === 'completed' && !isPlainObject(record.result)) return `a completed task whose result is ${bounded(record.result, 60)}, not an object`;
  if (record.status === 'failed' && !(isPlainObject(record.error) && typeof record.error.code === 'number' && typeof record.error.message === 'string'))
    return `a failed task whose error is ${bounded(record.error, 60)}, not a JSON-RPC error`;
  if (record.status === 'input_required' && record.inputRequests !== undefined && !isPlainObject(record.inputRequests))
    return `inputRequests ${bounded(record.inputRequests, 60)}, not an object`;
  return undefined;
}

import { McpConfigurationError, got } from '../errors/mcp-configuration.error.js';

/** Whether a tool or action may run as a task: `optional` (when the client declares the tasks extension) or `required`. @publicApi */
export type McpTaskSupport = 'optional' | 'required';

/** When a task-supporting call becomes a task: as the `call` starts, or when its `handler` calls `ctx.startTask()`. @publicApi */
export type McpTaskStart = 'call' | 'handler';

/** What a tool or action declared about tasks, read once at module init. */
export interface TaskMode {
  readonly support: McpTaskSupport;
  readonly start: McpTaskStart;
}

/** The task declarations `@McpTool` and `@McpAction` both take. */
export interface TaskDeclaration {
  taskSupport?: McpTaskSupport;
  taskStart?: McpTaskStart;
}

/**
 * Reads a declaration's `taskSupport` and `taskStart` (the fallback's, where it declares none): the task mode, or
 * undefined for a call that never becomes a task.
 * @throws {McpConfigurationError} on a value outside the two lists, or `taskStart` without `taskSupport`
 */
export function readTaskMode(declared: TaskDeclaration, where: string, fallback?: TaskMode): TaskMode | undefined {
  const { taskSupport, taskStart } = declared;
  if (taskSupport !== undefined && taskSupport !== 'optional' && taskSupport !== 'required')
    throw new McpConfigurationError(where, `taskSupport must be "optional" or "required"${got(taskSupport)}`);
  if (taskStart !== undefined && taskStart !== 'call' && taskStart !== 'handler')
    throw new McpConfigurationError(where, `taskStart must be "call" or "handler"${got(taskStart)}`);
  const support = taskSupport ?? fallback?.support;
  if (support === undefined) {
    if (taskStart !== undefined) throw new McpConfigurationError(where, 'taskStart is given without taskSupport; declare taskSupport: "optional" or "required"');
    return undefined;
  }
  return { support, start: taskStart ?? fallback?.start ?? 'call' };
}

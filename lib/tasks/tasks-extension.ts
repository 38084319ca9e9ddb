import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { unavailable } from '../errors/unavailable.js';
import { TASKS_EXTENSION } from '../mcp.constants.js';
import { bounded } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';

/** Whether a request's client capabilities declare the tasks extension (the per-request opt-in; nothing else counts). */
export function declaresTasks(capabilities: unknown): boolean {
  return isPlainObject(capabilities) && isPlainObject(capabilities.extensions) && isPlainObject(capabilities.extensions[TASKS_EXTENSION]);
}

/** The -32021 answer to a request that needs the tasks extension its client capabilities do not declare (400). */
export function missingTasksExtension(what: string): McpMethodError {
  return new McpMethodError(
    JSON_RPC_CODES.missingRequiredClientCapability,
    `Missing required client capability: ${what} needs the tasks extension; declare "${TASKS_EXTENSION}" under extensions in the request's clientCapabilities.`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    400,
  );
}

/**
 * The {@link unavailable} answer (503 + -32603) to `tasks/update` or `tasks/cancel` of a task that has not ended and whose handler does
 * not run in this process: another instance sharing the task store runs it, or ran it and stopped. Nothing is
 * delivered, so nothing is acknowledged; the client may retry (a load balancer may route it to the right instance).
 */
export function taskElsewhere(taskId: string): McpMethodError {
  return unavailable(
    'task_elsewhere',
    'this task runs on another instance of this server, or ran on one that stopped, so no answer or cancellation reaches it from here; send the requests for a task to the instance that created it (route them by the Mcp-Name header, the task id).',
    { taskId: bounded(taskId, 100) },
  );
}

/**
 * The {@link unavailable} answer (503 + -32603) to a request whose task store call (`create`, `get`, `update`) did
 * not settle within `ms` (`tasks.storeTimeoutMs`): the store hangs (a shared one that lost its connection and
 * queues commands, say); the client may retry.
 */
export function taskStoreUnavailable(call: 'create' | 'get' | 'update', ms: number): McpMethodError {
  return unavailable('task_store_unavailable', `the task store did not answer its ${call} call within ${ms} ms (tasks.storeTimeoutMs); retry later.`);
}

/** The -32602 answer for a task id this caller cannot see: unknown, expired, or another subject's (one answer for all three). */
export function taskNotFound(taskId: string): McpMethodError {
  return new McpMethodError(JSON_RPC_CODES.invalidParams, 'Invalid params: task not found (unknown, expired, or not yours); start the call again.', {
    reason: 'task_not_found',
    taskId: bounded(taskId, 100),
  });
}

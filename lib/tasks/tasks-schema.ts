import { ProtocolSchema, type ProtocolSchemaDocument } from '../protocol/protocol-schema.js';
import * as precompiled from '../schema/mcp-tasks.validators.js';

const TASK_ID = { type: 'string' };

/** A request of one tasks method: its `method` fixed, `params` required. */
const request = (method: string, params: Record<string, unknown>) => ({
  type: 'object',
  required: ['jsonrpc', 'id', 'method', 'params'],
  properties: { jsonrpc: { const: '2.0' }, id: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, method: { const: method }, params },
});

/** The tasks schema's id, which its precompiled validators were generated under. */
export const TASKS_SCHEMA_ID = 'mcp-tasks';

/**
 * The requests of the tasks extension's methods (`tasks/get`, `tasks/update`, `tasks/cancel`), written here from
 * the extension's text: the core schema does not hold them. Keys beyond those named are allowed (`_meta`).
 */
export const TASKS_SCHEMA_DOCUMENT: ProtocolSchemaDocument = {
  $defs: {
    GetTaskRequest: request('tasks/get', { type: 'object', required: ['taskId'], properties: { taskId: TASK_ID } }),
    UpdateTaskRequest: request('tasks/update', {
      type: 'object',
      required: ['taskId', 'inputResponses'],
      properties: { taskId: TASK_ID, inputResponses: { type: 'object', additionalProperties: { type: 'object' } } },
    }),
    CancelTaskRequest: request('tasks/cancel', { type: 'object', required: ['taskId'], properties: { taskId: TASK_ID } }),
  },
};

/** The tasks extension's request checks ({@link TASKS_SCHEMA_DOCUMENT}, compiled ahead of time), injected by its class. */
export class TasksProtocolSchema extends ProtocolSchema {
  constructor() {
    super(TASKS_SCHEMA_DOCUMENT, TASKS_SCHEMA_ID, precompiled);
  }
}

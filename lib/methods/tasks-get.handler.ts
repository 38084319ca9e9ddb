import { Injectable } from '@nestjs/common';

import type { McpResult } from '../protocol/json-rpc.js';
import { TaskMethod, type TaskCall } from './task-method.js';

/** `tasks/get`: the task as it is now (status, timestamps, and its input requests, result or error inlined); -32602 when not found. */
@Injectable()
export class TasksGetHandler extends TaskMethod {
  readonly method = 'tasks/get' as const;

  protected async act({ taskId, subject }: TaskCall): Promise<McpResult> {
    return { resultType: 'complete', ...(await this.tasks.get(taskId, subject)) };
  }
}

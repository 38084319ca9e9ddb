import { Injectable } from '@nestjs/common';

import type { McpResult } from '../protocol/json-rpc.js';
import { TaskMethod, type TaskCall } from './task-method.js';

/**
 * `tasks/update`: answers the task's outstanding input requests (`inputResponses`; keys not outstanding are
 * ignored), acknowledged with an empty result; -32602 when not found or when an answer does not read as asked.
 */
@Injectable()
export class TasksUpdateHandler extends TaskMethod {
  readonly method = 'tasks/update' as const;

  protected async act({ taskId, subject, params }: TaskCall): Promise<McpResult> {
    await this.tasks.update(taskId, subject, params.inputResponses as Record<string, unknown>);
    return { resultType: 'complete' };
  }
}

import { Injectable } from '@nestjs/common';

import type { McpResult } from '../protocol/json-rpc.js';
import { TaskMethod, type TaskCall } from './task-method.js';

/** `tasks/cancel`: cancels the task (its handler's signal aborts), acknowledged with an empty result, also on a task already ended; -32602 when not found. */
@Injectable()
export class TasksCancelHandler extends TaskMethod {
  readonly method = 'tasks/cancel' as const;

  protected async act({ taskId, subject }: TaskCall): Promise<McpResult> {
    await this.tasks.cancel(taskId, subject);
    return { resultType: 'complete' };
  }
}

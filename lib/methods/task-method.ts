import { Injectable } from '@nestjs/common';

import { META_KEYS } from '../mcp.constants.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { TaskRuns } from '../tasks/task-runs.js';
import { declaresTasks, missingTasksExtension } from '../tasks/tasks-extension.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/** What a tasks method acts on: the task id asked for, and the caller's auth subject it must belong to. */
export interface TaskCall {
  readonly taskId: string;
  readonly subject: string | undefined;
  readonly params: Record<string, unknown>;
}

/**
 * A tasks-extension method (`tasks/get`, `tasks/update`, `tasks/cancel`), modern era only: served when some tool
 * or action may run as a task; a request whose client capabilities do not declare the extension is -32021.
 * Its handlers inherit its injected constructor.
 */
@Injectable()
export abstract class TaskMethod implements McpMethodHandler {
  abstract readonly method: 'tasks/get' | 'tasks/update' | 'tasks/cancel';
  readonly eras = ['modern'] as const;

  constructor(
    private readonly tools: ToolRegistry,
    protected readonly tasks: TaskRuns,
  ) {}

  served(): boolean {
    return this.tools.runsTasks;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    if (!declaresTasks(call.record.meta?.[META_KEYS.clientCapabilities])) throw missingTasksExtension(this.method);
    return this.act({ taskId: call.params.taskId as string, subject: call.record.auth?.subject, params: call.params });
  }

  protected abstract act(call: TaskCall): Promise<McpResult>;
}

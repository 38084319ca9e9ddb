import { applyDecorators, SetMetadata } from '@nestjs/common';

import { MCP_ACTION_METADATA } from '../mcp.constants.js';
import type { McpActionOptions } from './tool.interfaces.js';

/**
 * Marks a method of an `@McpTool` class as an action, named after the method unless `name` is given. The method
 * receives the gated `data` (defaults applied) and the `McpContext`. See docs/tools.md.
 *
 * @example
 * ```ts
 * @McpTool({ name: 'tasks', description: 'Task management' })
 * export class TasksTool {
 *   constructor(private readonly repo: TasksRepository) {}
 *
 *   @McpAction({ description: 'Create a task', properties: { name: { type: 'string' } }, required: ['name'] })
 *   create(data: { name: string }, ctx: McpContext) {
 *     return ok(this.repo.add(data.name));
 *   }
 * }
 * ```
 * @publicApi
 */
export function McpAction(options: McpActionOptions): MethodDecorator {
  return applyDecorators(SetMetadata(MCP_ACTION_METADATA, options));
}

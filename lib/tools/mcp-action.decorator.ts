import { applyDecorators, SetMetadata } from '@nestjs/common';
import { MCP_ACTION_METADATA } from '../mcp.constants.js';
import type { McpActionOptions } from './tool.interfaces.js';

/**
 * Marks a method of an `@McpTool` class as one of its actions. The decorator takes the action schema (and,
 * optionally, the action's `name`, else the method's name); the method receives the call's `data` (gated,
 * with defaults applied) and the `McpContext`, and returns the result (a value, `ok(...)`/`fail(...)`, or MCP
 * content). Everything it declares is checked at module init (`action-schema.ts`).
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

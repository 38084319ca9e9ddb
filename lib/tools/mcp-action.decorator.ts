import { SetMetadata } from '@nestjs/common';

import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { MCP_ACTION_METADATA, MCP_ACTIONS_DECLARED_METADATA } from '../mcp.constants.js';
import { decoratedMember, spelledMember } from '../util/decorated-member.js';
import type { McpActionOptions } from './tool.interfaces.js';

/**
 * Marks a method of an `@McpTool` class as an action, named after the method unless `name` is given. The method
 * receives the gated `data` (defaults applied) and the `McpContext`. See docs/tools.md.
 *
 * Only an instance method can be an action: on a static method, an accessor or a property (an arrow function) the
 * decorator throws a `McpConfigurationError` as the class is defined.
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
  // Stored as null when missing, so module init still finds the method and refuses it.
  const mark = SetMetadata(MCP_ACTION_METADATA, options ?? null);
  return (target, key, descriptor) => {
    const member = decoratedMember(target, descriptor);
    if (member.isStatic || member.shape !== 'method')
      throw new McpConfigurationError(
        `class ${member.owner}, member ${JSON.stringify(String(key))}`,
        `@McpAction decorates an instance method; ${String(key)} is ${spelledMember(member)}${member.shape === 'property' ? ' (an arrow function is one: write a method)' : ''}`,
      );
    Reflect.defineMetadata(MCP_ACTIONS_DECLARED_METADATA, true, target.constructor);
    return mark(target, key, descriptor);
  };
}

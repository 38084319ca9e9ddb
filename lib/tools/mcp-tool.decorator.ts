import { applyDecorators, SetMetadata } from '@nestjs/common';

import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { MCP_TOOL_METADATA } from '../mcp.constants.js';
import { quoted } from '../util/bounded.js';
import { providerInjectable } from '../util/provider-injectable.js';
import type { McpToolOptions } from './tool.interfaces.js';

/**
 * Marks a class as an MCP tool: an injectable provider wired in at module init, either an action tool
 * (`@McpAction` methods) or a plain tool (`inputSchema` plus `run(args, ctx)`). See docs/tools.md.
 *
 * A class is one tool: a second `@McpTool` on it throws a `McpConfigurationError` as the class is defined (a
 * subclass of a tool may have its own).
 *
 * @example
 * ```ts
 * @McpTool({ name: 'echo', description: 'Echoes text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
 * export class EchoTool {
 *   run(args: { text: string }) { return args.text; }
 * }
 * ```
 * @publicApi
 */
export function McpTool(options: McpToolOptions): ClassDecorator {
  // Stored as null when missing, so module init still finds the class and refuses it.
  const decorate = applyDecorators(providerInjectable(), SetMetadata(MCP_TOOL_METADATA, options ?? null));
  return (target) => {
    const earlier = Reflect.getOwnMetadata(MCP_TOOL_METADATA, target) as McpToolOptions | null | undefined;
    if (earlier !== undefined)
      throw new McpConfigurationError(
        `class ${target.name}`,
        `@McpTool is applied twice (tools ${quoted(earlier?.name, 60)} and ${quoted(options?.name, 60)}); a class is one tool: remove one`,
      );
    decorate(target);
  };
}

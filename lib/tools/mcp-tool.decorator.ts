import { applyDecorators, SetMetadata } from '@nestjs/common';

import { MCP_TOOL_METADATA } from '../mcp.constants.js';
import { providerInjectable } from '../util/provider-injectable.js';
import type { McpToolOptions } from './tool.interfaces.js';

/**
 * Marks a class as an MCP tool: an injectable provider wired in at module init, either an action tool
 * (`@McpAction` methods) or a plain tool (`inputSchema` plus `run(args, ctx)`). See docs/tools.md.
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
  return applyDecorators(providerInjectable(), SetMetadata(MCP_TOOL_METADATA, options));
}

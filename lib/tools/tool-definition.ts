import type { McpToolOptions } from './tool.interfaces.js';

/**
 * A tool's definition: its tools/list entry (MCP `Tool`), assembled once at module init from what the tool
 * declared. Consumer-authored text (description, title) goes out exactly as written.
 */
export function toolDefinition(options: McpToolOptions, inputSchema: Record<string, unknown>): Readonly<Record<string, unknown>> {
  const definition: Record<string, unknown> = { name: options.name };
  if (options.title !== undefined) definition.title = options.title;
  definition.description = options.description;
  definition.inputSchema = inputSchema;
  if (options.outputSchema !== undefined) definition.outputSchema = options.outputSchema;
  if (options.annotations !== undefined) definition.annotations = options.annotations;
  return Object.freeze(definition);
}

import { McpConfigurationError, got, unknownOptions } from '../errors/mcp-configuration.error.js';
import type { McpToolAnnotations } from './tool.interfaces.js';

/**
 * The MCP tool annotations (`ToolAnnotations` of the 2026-07-28 schema) and the JSON type of each: the closed key
 * set `@McpTool`'s `annotations` may hold (the schema leaves it open; a key outside it is more likely a typo).
 */
export const TOOL_ANNOTATION_TYPES = Object.freeze({
  title: 'string',
  readOnlyHint: 'boolean',
  destructiveHint: 'boolean',
  idempotentHint: 'boolean',
  openWorldHint: 'boolean',
} as const satisfies Record<keyof McpToolAnnotations, 'string' | 'boolean'>);

const ANNOTATION_KEYS = Object.keys(TOOL_ANNOTATION_TYPES);

/** Checks a tool's annotations at module init: each key one of {@link TOOL_ANNOTATION_TYPES} (a near miss hinted), with a value of its type. */
export function checkToolAnnotations(annotations: Record<string, unknown>, where: string): void {
  const unknown = unknownOptions(annotations, ANNOTATION_KEYS, 'annotations');
  if (unknown) throw new McpConfigurationError(where, unknown);
  for (const key of ANNOTATION_KEYS) {
    const type = TOOL_ANNOTATION_TYPES[key as keyof McpToolAnnotations];
    if (annotations[key] !== undefined && typeof annotations[key] !== type)
      throw new McpConfigurationError(where, `annotations.${key} must be a ${type}${got(annotations[key])}`);
  }
}

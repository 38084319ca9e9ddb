import type { McpIcon } from '../options/mcp-module-options.interface.js';

/**
 * MCP annotations (`Annotations`): hints for clients about who a resource, a resource template or a content block is
 * for and how much it matters. A tool's are something else (`McpToolAnnotations`). @publicApi
 */
export interface McpAnnotations {
  /** Who it is meant for. */
  audience?: readonly ('user' | 'assistant')[];
  /** How important it is, from 0 (entirely optional) to 1 (effectively required). */
  priority?: number;
  /** When it last changed, an ISO 8601 timestamp (for example `2025-01-12T15:00:58Z`). */
  lastModified?: string;
}

/**
 * One block of MCP content (`ContentBlock`), as a tool result or a prompt message carries it: text, an image or
 * audio (base64), an embedded resource, or a resource link (described as a listed resource is). @publicApi
 */
export type McpContentBlock = (
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; _meta?: Record<string, unknown> } & ({ text: string } | { blob: string }) }
  | { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number; icons?: readonly McpIcon[] }
) & { annotations?: McpAnnotations; _meta?: Record<string, unknown> };

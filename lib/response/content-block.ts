/**
 * One block of MCP content (`ContentBlock`), as a tool result or a prompt message carries it: text, an image or
 * audio (base64), an embedded resource, or a resource link. @publicApi
 */
export type McpContentBlock = (
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: string }) }
  | { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string }
) & { annotations?: Record<string, unknown>; _meta?: Record<string, unknown> };

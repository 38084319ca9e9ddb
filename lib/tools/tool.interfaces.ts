/** MCP tool annotations: hints for clients, never a security boundary. @publicApi */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * What `@McpTool` declares about a tool. A plain tool gives its own `inputSchema` and implements
 * `run(args, ctx)`; everything is checked at module init.
 * @publicApi
 */
export interface McpToolOptions {
  /** The tool's name: 1–128 characters of `[A-Za-z0-9_.-]`, unique in the server. */
  name: string;
  /** What the tool does, for the calling LLM. Consumer-authored text, sent as written. */
  description: string;
  /** Display name. */
  title?: string;
  /** A plain tool's input schema: a JSON Schema object with `"type": "object"` at the root. */
  inputSchema?: Record<string, unknown>;
  /** A JSON Schema the tool's structured result conforms to; results then carry `structuredContent`. */
  outputSchema?: Record<string, unknown>;
  /** Tool annotations. */
  annotations?: McpToolAnnotations;
}

/** A JSON-RPC result of tools/call (`CallToolResult` or, later, an input-required result). */
export type ToolCallResult = Record<string, unknown> & { resultType: string };

/** Constants shared across the request path: metadata keys, wire names, the served verb and protocol versions. */

/** The protocol revisions this library serves, newest first. The version check reads only this list. @publicApi */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** The HTTP verbs the mount serves. Every other verb reaches the fallthrough (405 + `Allow`). @publicApi */
export const SERVED_VERBS = ['POST'] as const;

/** Reserved `_meta` keys of the 2026-07-28 revision (https://modelcontextprotocol.io/specification/2026-07-28/basic). @publicApi */
export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  progressToken: 'progressToken',
} as const;

/** The mirrored headers, lower-cased as Node exposes them (header names compare without case). */
export const MIRRORED_HEADERS = {
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
  paramPrefix: 'mcp-param-',
} as const;

/** How the fixed mirrored headers are spelled in messages, by their lower-cased name. */
export const MIRRORED_HEADER_DISPLAY = {
  [MIRRORED_HEADERS.protocolVersion]: 'MCP-Protocol-Version',
  [MIRRORED_HEADERS.method]: 'Mcp-Method',
  [MIRRORED_HEADERS.name]: 'Mcp-Name',
} as const;

/** Metadata key under which `@McpTool` stores a provider's tool options. */
export const MCP_TOOL_METADATA = 'mcp:tool';

/** Metadata key under which `@McpAction` stores a method's action options. */
export const MCP_ACTION_METADATA = 'mcp:action';

/** The help tool's name: the reserved name, which only the framework may wire in. @publicApi */
export const HELP_TOOL_NAME = 'help';

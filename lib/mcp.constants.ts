/** Constants shared across the request path: metadata keys, wire names, the served verb and protocol versions. */

/** The modern-era revisions this library serves, newest first: what `server/discover` lists and the version check reads. @publicApi */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** The legacy-era revisions (`initialize`-based) this library serves, newest first; `initialize` negotiates among them. @publicApi */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/**
 * The protocol eras: `modern` (2026-07-28: stateless, per-request `_meta`) and `legacy` (the `initialize`-based
 * revisions). Era classification puts every request in one (see docs/eras.md). @publicApi
 */
export const ERAS = ['modern', 'legacy'] as const;

/** One protocol era. @publicApi */
export type McpEra = (typeof ERAS)[number];

/** The revision a legacy request is read as without an `MCP-Protocol-Version` header or a readable session id (the transport spec's rule). */
export const LEGACY_DEFAULT_VERSION = '2025-03-26';

/** The log levels, lowest to highest (RFC 5424 severities). @publicApi */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** One log level. @publicApi */
export type McpLogLevel = (typeof LOG_LEVELS)[number];

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

/** The header a legacy `initialize` answer carries and its client echoes on every later request (lower-cased, as Node reads it). */
export const SESSION_ID_HEADER = 'mcp-session-id';

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

/** Metadata key `@McpAction` sets on the class of its method, so module init finds a provider with actions but no `@McpTool` in one lookup. */
export const MCP_ACTIONS_DECLARED_METADATA = 'mcp:actions-declared';

/** The help tool's name: the reserved name, which only the framework may wire in. @publicApi */
export const HELP_TOOL_NAME = 'help';

/** The tasks extension's identifier: its key under `capabilities.extensions`, on both sides. @publicApi */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

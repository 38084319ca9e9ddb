/** Injection token of the validated module options, defaults applied (`McpResolvedOptions`). @publicApi */
export const MCP_OPTIONS = Symbol.for('nest-mcp.options');

/** Injection token of the mount path as given to `forRoot` (an extra). */
export const MCP_MOUNT_PATH = Symbol.for('nest-mcp.mount-path');

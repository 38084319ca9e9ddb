import type { McpEra } from '../mcp.constants.js';

/** The capabilities object (MCP `ServerCapabilities`), by capability name. */
export type Capabilities = Record<string, Record<string, unknown>>;

/**
 * A capability source: something module init wired in that makes the server advertise capabilities (the tool
 * registry: `tools`, `logging`). `ServerCapabilities` gathers them, so advertised and routed never disagree.
 */
export interface CapabilitySource {
  /** Adds the capabilities it makes true on `era` to `into`; adds nothing when it has nothing wired in. */
  contribute(into: Capabilities, era: McpEra): void;
}

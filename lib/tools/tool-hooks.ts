import { McpConfigurationError, got } from '../errors/mcp-configuration.error.js';
import type { ProtocolShape } from '../protocol/protocol-schema.js';
import type { OutputCheck, SchemaCompiler } from '../validation/schema-compiler.js';
import { TOOL_HOOK_NAMES, type McpToolHooks } from './tool.interfaces.js';

/**
 * A tool's optional hooks bound to its instance, plus its output-schema and `CallToolResult` validators: what a
 * handler's result is built with. An absent hook means "nothing to add" or "the default".
 */
export interface ToolHooks {
  readonly tool: string;
  readonly hints?: McpToolHooks['hints'];
  readonly actionContext?: McpToolHooks['actionContext'];
  readonly formatError?: McpToolHooks['formatError'];
  /** The output schema's compiled check, when the tool declares one. */
  readonly output?: OutputCheck;
  /** The protocol's `CallToolResult`, for MCP content a tool returns itself (compiled at module init). */
  readonly resultShape: ProtocolShape;
}

/** What building a tool at module init uses: the schema compiler, and the protocol's `CallToolResult`. */
export interface ToolBuildKit {
  readonly compiler: SchemaCompiler;
  readonly resultShape: ProtocolShape;
}

/** Reads a tool's hooks at module init, refusing a non-function member of a hook's name (requests only probe presence). */
export function readHooks(tool: string, instance: object, output: OutputCheck | undefined, resultShape: ProtocolShape): ToolHooks {
  const hooks: Record<string, unknown> = { tool, output, resultShape };
  for (const name of TOOL_HOOK_NAMES) {
    const member = (instance as Record<string, unknown>)[name];
    if (member === undefined) continue;
    if (typeof member !== 'function') throw new McpConfigurationError(`tool "${tool}"`, `${name} must be a method (an optional hook)${got(member)}`);
    hooks[name] = member.bind(instance);
  }
  return hooks as unknown as ToolHooks;
}

import type { ValidateFunction } from 'ajv';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { SchemaCompiler } from '../validation/schema-compiler.js';
import { TOOL_HOOK_NAMES, type McpToolHooks } from './tool.interfaces.js';

/**
 * A tool's optional hooks as module init found them on its instance, bound to it, plus its compiled output
 * schema and the protocol's result validator: everything the result of a handler is built with (`handler-result.ts`). An absent hook is
 * `undefined`, which means "nothing to add" (hints, action context) or "the default" (error formatting).
 */
export interface ToolHooks {
  readonly tool: string;
  readonly hints?: McpToolHooks['hints'];
  readonly actionContext?: McpToolHooks['actionContext'];
  readonly formatError?: McpToolHooks['formatError'];
  /** The output schema's compiled validator, when the tool declares one. */
  readonly output?: ValidateFunction;
  /** The protocol's `CallToolResult` validator, for MCP content a tool returns itself (compiled at module init). */
  readonly resultShape: ValidateFunction;
}

/** What building a tool at module init uses: the schema compiler, and the protocol's `CallToolResult` validator. */
export interface ToolBuildKit {
  readonly compiler: SchemaCompiler;
  readonly resultShape: ValidateFunction;
}

/**
 * Reads the optional hooks off a tool instance at module init. Invariant: a hook the tool has is a function; a
 * member of that name holding anything else is refused (`McpConfigurationError` naming tool and hook), so the
 * request path only ever probes for presence.
 */
export function readHooks(tool: string, instance: object, output: ValidateFunction | undefined, resultShape: ValidateFunction): ToolHooks {
  const hooks: Record<string, unknown> = { tool, output, resultShape };
  for (const name of TOOL_HOOK_NAMES) {
    const member = (instance as Record<string, unknown>)[name];
    if (member === undefined) continue;
    if (typeof member !== 'function') throw new McpConfigurationError(`tool "${tool}"`, `${name} must be a method (an optional hook), not ${typeof member}`);
    hooks[name] = member.bind(instance);
  }
  return hooks as unknown as ToolHooks;
}

import { Injectable } from '@nestjs/common';
import { McpContext } from '../context/mcp-context.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import { bounded, quoted } from '../util/bounded.js';
import type { McpMethodHandler, McpResult, MethodCall } from './method-handler.interface.js';

/**
 * `tools/call`: finds the tool by name (an unknown tool is -32602 naming it: -32601 is for methods) and hands the
 * arguments to it. Absent or null `arguments` read as `{}`. Everything inside the arguments is the tool's to
 * refuse, in the tool dialect.
 */
@Injectable()
export class ToolsCallHandler implements McpMethodHandler {
  readonly method = 'tools/call' as const;

  constructor(private readonly registry: ToolRegistry) {}

  served(): boolean {
    return this.registry.size > 0;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    const name = call.params.name as string;
    const tool = this.registry.get(name);
    if (!tool)
      throw new McpMethodError(JSON_RPC_CODES.invalidParams, `Unknown tool: ${quoted(name, 100)}.`, {
        tool: bounded(name, 100),
        available: this.registry.list().map((t) => t.name),
      });
    const args = (call.params.arguments ?? {}) as Record<string, unknown>;
    const context = new McpContext(call.state, call.request.headers, name, undefined, call.signal);
    return tool.call(args, context);
  }
}

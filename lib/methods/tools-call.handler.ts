import { Injectable } from '@nestjs/common';
import { McpContext } from '../context/mcp-context.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { DispatchService } from '../tools/dispatch.service.js';
import { ToolRegistry, type McpContextFactory } from '../tools/tool.registry.js';
import { bounded, quoted } from '../util/bounded.js';
import type { McpMethodHandler, McpResult, MethodCall } from './method-handler.interface.js';

/**
 * `tools/call`: finds the tool by name (an unknown tool is -32602 naming it: -32601 is for methods) and hands the
 * arguments to the dispatch service, which runs the dispatch gates, the tool and fault containment. Absent or
 * null `arguments` read as `{}`. Everything inside the arguments is the tool's to refuse, in the tool dialect.
 * The context is built per run, once the gates know the action.
 */
@Injectable()
export class ToolsCallHandler implements McpMethodHandler {
  readonly method = 'tools/call' as const;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly dispatch: DispatchService,
  ) {}

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
    const contextFor: McpContextFactory = (action, target = name) => new McpContext(call.state, call.request.headers, target, action, call.signal);
    return this.dispatch.call(tool, args, contextFor);
  }
}

import { Injectable } from '@nestjs/common';
import { McpContext } from '../context/mcp-context.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { MrtrRounds } from '../mrtr/mrtr-rounds.js';
import { DispatchService } from '../tools/dispatch.service.js';
import { ToolRegistry, type McpContextFactory } from '../tools/tool.registry.js';
import { bounded, quoted } from '../util/bounded.js';
import type { McpMethodHandler, McpResult, MethodCall } from './method-handler.interface.js';

/**
 * `tools/call`: finds the tool by name (an unknown tool is -32602 naming it: -32601 is for methods) and hands the
 * arguments to the dispatch service, which runs the dispatch gates, the tool and fault containment. Absent or
 * null `arguments` read as `{}`. Everything inside the arguments is the tool's to refuse, in the tool dialect.
 * Each call is one round of a multi round-trip request (`MrtrRounds`): an echoed `requestState` is verified
 * before the tool runs, bound to the tool name and arguments, and the tool's input requests may end the call
 * with an input-required result. The contexts of one call (one per action the gates resolve, and help's
 * context for the tool it describes) share the round, the answer stream and the progress reporter.
 */
@Injectable()
export class ToolsCallHandler implements McpMethodHandler {
  readonly method = 'tools/call' as const;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly rounds: MrtrRounds,
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
    const round = this.rounds.open(call, { name, arguments: args });
    const base = new McpContext(call.state, call.request.headers, name, undefined, call.answer.signal, { round, answer: call.answer });
    const contextFor: McpContextFactory = (action, target = name) =>
      target === name
        ? action === undefined
          ? base
          : base.withAction(action)
        : new McpContext(call.state, call.request.headers, target, action, call.answer.signal, { answer: call.answer });
    return this.rounds.settle(round, () => this.dispatch.call(tool, args, contextFor), name);
  }
}

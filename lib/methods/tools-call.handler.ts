import { Injectable } from '@nestjs/common';

import { McpContext } from '../context/mcp-context.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { ERAS } from '../mcp.constants.js';
import { MrtrRounds } from '../mrtr/mrtr-rounds.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { DispatchService } from '../tools/dispatch.service.js';
import { ToolRegistry, type McpContextFactory } from '../tools/tool.registry.js';
import { bounded, quoted } from '../util/bounded.js';
import { callFacts } from './call-facts.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/**
 * `tools/call`: an unknown tool is -32602 (-32601 is for methods); otherwise the arguments (absent: `{}`)
 * go to the dispatch service, whose refusals speak the tool dialect. Each call is one MRTR round, its
 * `requestState` bound to the tool name and arguments; the call's contexts share the round, answer stream and
 * progress reporter. See docs/mrtr.md.
 */
@Injectable()
export class ToolsCallHandler implements McpMethodHandler {
  readonly method = 'tools/call' as const;
  readonly eras = ERAS;

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
    const inputs = await this.rounds.open({ method: this.method, params: call.params, record: call.record, identifying: { name, arguments: args }, answer: call.answer });
    const facts = callFacts(call);
    const base = new McpContext({ ...facts, tool: name, inputs });
    // Help's context for the tool it describes is that tool's, outside this call's input channel.
    const contextFor: McpContextFactory = (action, target = name) =>
      target !== name ? new McpContext({ ...facts, tool: target, action }) : action === undefined ? base : base.withAction(action);
    return this.rounds.settle(inputs, () => this.dispatch.call(tool, args, contextFor, call.record.era), name);
  }
}

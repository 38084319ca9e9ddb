import { Injectable } from '@nestjs/common';

import { McpContext } from '../context/mcp-context.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { ERAS, META_KEYS } from '../mcp.constants.js';
import { MrtrRounds } from '../mrtr/mrtr-rounds.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { TaskPromotion } from '../tasks/task-promotion.js';
import { TaskRuns } from '../tasks/task-runs.js';
import { declaresTasks, missingTasksExtension } from '../tasks/tasks-extension.js';
import { DispatchService } from '../tools/dispatch.service.js';
import type { TaskMode } from '../tools/task-mode.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import type { McpContextFactory } from '../tools/wired-tool.js';
import { bounded, quoted } from '../util/bounded.js';
import { didYouMean } from '../util/near-miss.js';
import { contextInit } from './context-init.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/**
 * `tools/call`: an unknown tool is -32602 (-32601 is for methods); otherwise the arguments (absent: `{}`)
 * go to the dispatch service, whose refusals speak the tool dialect. Each call is one MRTR round, its
 * `requestState` bound to the tool name and arguments; the call's contexts share the round, answer stream and
 * progress reporter. A call of a task-supporting tool or action may become a task when the request declares the
 * tasks extension; without it, a `required` one is -32021. See docs/mrtr.md and docs/tasks.md.
 */
@Injectable()
export class ToolsCallHandler implements McpMethodHandler {
  readonly method = 'tools/call' as const;
  readonly eras = ERAS;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly rounds: MrtrRounds,
    private readonly dispatch: DispatchService,
    private readonly tasks: TaskRuns,
  ) {}

  served(): boolean {
    return this.registry.size > 0;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    const name = call.params.name as string;
    const tool = this.registry.get(name);
    if (!tool)
      throw new McpMethodError(
        JSON_RPC_CODES.invalidParams,
        `Unknown tool: ${quoted(name, 100)}${didYouMean(this.registry.nearMissOf(name))}. Valid tools: ${this.registry.listedNames()}.`,
        {
          tool: bounded(name, 100),
          ...this.registry.namesListed(),
        },
      );
    const args = (call.params.arguments ?? {}) as Record<string, unknown>;
    const taskMode = this.taskMode(call, tool.taskMode(args.action));
    const inputs = this.rounds.channel({ method: this.method, params: call.params, record: call.record, identifying: { name, arguments: args }, answer: call.answer });
    const promotion =
      taskMode &&
      new TaskPromotion(this.tasks, {
        tool: name,
        action: typeof args.action === 'string' ? args.action : undefined,
        record: call.record,
        round: inputs,
        requestSignal: call.answer.signal,
        checks: this.rounds.checks,
      });
    const base = promotion
      ? new McpContext(contextInit(call, { tool: name, inputs: promotion.inputs, signal: promotion.abort.signal, task: promotion }))
      : new McpContext(contextInit(call, { tool: name, inputs }));
    // Help's context for the tool it describes is that tool's, outside this call's input channel.
    const contextFor: McpContextFactory = (action, target = name) => {
      if (target !== name) return new McpContext(contextInit(call, { tool: target, action }));
      return action === undefined ? base : base.withAction(action);
    };
    // A call that is a task as it starts is stored before its handler runs: one the store refuses has done nothing.
    const stored = taskMode?.start === 'call' ? () => promotion!.start() : undefined;
    // An echoed requestState is admitted after the dispatch gates: its binding digests the arguments, which they bound.
    const admit = typeof call.params.requestState === 'string' ? () => this.rounds.admit(inputs) : undefined;
    const run = () => this.dispatch.call(tool, args, contextFor, { era: call.record.era, admit, beforeHandler: stored, numbersInRange: call.record.numbersInRange });
    return this.rounds.settle(inputs, promotion ? () => promotion.run(run) : run, name);
  }

  /**
   * The call's task mode when it may become a task. A `required` one the request cannot take as a task is -32021,
   * or on the legacy era -32601, which the 2025-11-25 tasks utility requires of a task-only tool called without one.
   */
  private taskMode(call: MethodCall, mode: TaskMode | undefined): TaskMode | undefined {
    if (!mode) return undefined;
    if (call.record.era !== 'legacy' && declaresTasks(call.record.meta?.[META_KEYS.clientCapabilities])) return mode;
    if (mode.support === 'required') {
      const tool = `tool ${quoted(call.params.name, 100)}`;
      // A legacy request has no per-request capabilities to declare the extension in: say so rather than ask.
      if (call.record.era === 'legacy')
        throw new McpMethodError(
          JSON_RPC_CODES.methodNotFound,
          `Method not found: ${tool} runs only as a task, which a client of protocol version 2025-11-25 or earlier cannot ask for here; call it with protocol version 2026-07-28 and the tasks extension.`,
          undefined,
          404,
        );
      throw missingTasksExtension(tool);
    }
    return undefined;
  }
}

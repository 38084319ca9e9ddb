import type { McpContext } from '../context/mcp-context.js';
import type { HeaderAnnotation } from '../protocol/header-annotation-lookup.js';
import type { GatedCall, GateOutcome } from './dispatch-gates.js';
import type { TaskMode } from './task-mode.js';
import type { ToolCallResult } from './tool.interfaces.js';

/** Builds the context of one tool run, once the action is known (`tool` defaults to the called tool). */
export type McpContextFactory = (action?: string, tool?: string) => McpContext;

/** One tools/call of a wired tool as the dispatch service runs it: how to build its context, and what telemetry reports. */
export interface ToolRun {
  readonly contextFor: McpContextFactory;
  /** The action the dispatch gates resolved (action tools), set before the handler runs. */
  action?: string;
  /** `dispatch` when a gate (or help) refused the call, `tool` when the tool answered with an error. */
  errorKind?: 'dispatch' | 'tool';
}

/** What help publishes about a tool, rendered once at module init. */
export interface ToolHelp {
  /** The tool's entry in help's index: name, description and action summaries. */
  readonly index: Readonly<Record<string, unknown>>;
  /** The tool complete: help's tool level. */
  readonly full: Readonly<Record<string, unknown>>;
  /** Each action complete (help's action level, without its context), by name, sorted. Empty for a plain tool. */
  readonly actions: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** The tool's action context for an action (its `actionContext` hook), or undefined. */
  actionContext(action: string, ctx: McpContext): Promise<Record<string, unknown> | undefined>;
}

/** A tool as module init wired it in; the dispatch service runs `gate` then `handle`, and contains what it throws. */
export interface WiredTool {
  readonly name: string;
  readonly definition: Readonly<Record<string, unknown>>;
  readonly headerAnnotations: readonly HeaderAnnotation[];
  readonly help: ToolHelp;
  /** Whether any call of the tool may run as a task. */
  readonly runsTasks: boolean;
  /** How a call of the tool (or of the action it names) runs as a task; undefined: never one. */
  taskMode(action: unknown): TaskMode | undefined;
  /**
   * Runs the tool's dispatch gates on a call's arguments: a refusal, or the call to hand to `handle`.
   * `numbersInRange`: the request was proved to hold no number out of range, so the value gate looks for none.
   */
  gate(args: Record<string, unknown>, numbersInRange: boolean): GateOutcome;
  /** Runs the handler of a call the gates let through, and turns its return into the result. */
  handle(call: GatedCall, run: ToolRun): Promise<ToolCallResult>;
}

/** Whether every call of a tool runs as a task (`taskSupport: 'required'` on it, or on each of its actions). */
export function runsOnlyAsTask(tool: WiredTool): boolean {
  const actions = [...tool.help.actions.keys()];
  return actions.length === 0 ? tool.taskMode(undefined)?.support === 'required' : actions.every((action) => tool.taskMode(action)?.support === 'required');
}

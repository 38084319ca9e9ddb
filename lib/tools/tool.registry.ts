import { Injectable } from '@nestjs/common';

import type { McpContext } from '../context/mcp-context.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { HELP_TOOL_NAME, TASKS_EXTENSION, type Era } from '../mcp.constants.js';
import type { Capabilities, CapabilitySource } from '../protocol/capability-source.js';
import type { HeaderAnnotation, HeaderAnnotationLookup } from '../protocol/header-annotation-lookup.js';
import { NamedRegistry, type NamesListed } from '../util/named-registry.js';
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

/**
 * The wired-in tools, listed by name. Wire-in is the one validated site: a malformed or duplicate name, or `help`
 * for any tool but the framework's, is a `McpConfigurationError` at module init.
 */
@Injectable()
export class ToolRegistry implements HeaderAnnotationLookup, CapabilitySource {
  private readonly tools = new NamedRegistry<WiredTool>('tool');
  private runsTasksValue: boolean | undefined;

  /** Refuses a malformed or reserved name; called before a tool is built, so later refusals can name it safely. */
  checkName(name: unknown): void {
    this.tools.checkName(name);
    if (name === HELP_TOOL_NAME) throw new McpConfigurationError(`tool "${name}"`, 'uses the reserved name "help": the framework\'s help tool owns it');
  }

  /** Supplies a consumer's tool; refuses a malformed, duplicate or reserved name. */
  wireIn(tool: WiredTool): void {
    this.checkName(tool.name);
    this.tools.add(tool);
  }

  /** Supplies the framework's help tool, under the reserved name. */
  wireInHelp(help: WiredTool): void {
    if (help.name !== HELP_TOOL_NAME) throw new McpConfigurationError(`tool "${help.name}"`, 'is not the help tool');
    this.tools.add(help);
  }

  /** The tool wired in under `name`, if any (a Map lookup: a caller's `__proto__` finds nothing). */
  get(name: string): WiredTool | undefined {
    return this.tools.get(name);
  }

  /** The header annotations of the tool wired in under `tool` (the header-binding check's lookup). */
  annotationsOf(tool: string): readonly HeaderAnnotation[] {
    return this.tools.get(tool)?.headerAnnotations ?? [];
  }

  /**
   * `tools` when any tool is wired in (help is, beside any other), and with it `logging`, since any tool may log; on
   * the modern era the tasks extension when some tool or action may run as a task.
   */
  contribute(into: Capabilities, era: Era): void {
    if (this.tools.size === 0) return;
    into.tools = {};
    into.logging ??= {};
    if (era === 'modern' && this.runsTasks) into.extensions = { ...into.extensions, [TASKS_EXTENSION]: {} };
  }

  /** Whether some tool or action may run as a task (then the tasks methods are served); fixed once module init wired the tools. */
  get runsTasks(): boolean {
    return (this.runsTasksValue ??= this.tools.list().some((tool) => tool.runsTasks));
  }

  /** Every tool, sorted by name. */
  list(): readonly WiredTool[] {
    return this.tools.list();
  }

  /** How many tools are wired in, help included. */
  get size(): number {
    return this.tools.size;
  }

  /** The tool names as a refusal spells them for its reader ({@link NamedRegistry.listedNames}). */
  listedNames(): string {
    return this.tools.listedNames();
  }

  /** The tool names as a refusal's `data` lists them ({@link NamedRegistry.namesListed}). */
  namesListed(): NamesListed {
    return this.tools.namesListed();
  }
}

import { Injectable } from '@nestjs/common';

import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { HELP_TOOL_NAME, TASKS_EXTENSION, type McpEra } from '../mcp.constants.js';
import type { Capabilities, CapabilitySource } from '../protocol/capability-source.js';
import type { HeaderAnnotation, HeaderAnnotationLookup } from '../protocol/header-annotation-lookup.js';
import { NamedRegistry, type NamesListed } from '../util/named-registry.js';
import type { WiredTool } from './wired-tool.js';

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
  contribute(into: Capabilities, era: McpEra): void {
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

  /** The tool an unknown `name` nearly spells, for its refusal ({@link NamedRegistry.nearMissOf}). */
  nearMissOf(name: string): string | undefined {
    return this.tools.nearMissOf(name);
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

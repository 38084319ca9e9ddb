import { Injectable } from '@nestjs/common';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpContext } from '../context/mcp-context.js';
import type { HeaderAnnotation } from './header-annotation.js';
import type { ToolCallResult } from './tool.interfaces.js';

/**
 * A tool as module init wired it in: its tools/list definition (built and validated once), the header
 * annotations its input schema publishes, and the one entry point a tools/call reaches. `call` contains every
 * fault: it always resolves to a tool result.
 */
export interface WiredTool {
  readonly name: string;
  readonly definition: Readonly<Record<string, unknown>>;
  readonly headerAnnotations: readonly HeaderAnnotation[];
  call(args: Record<string, unknown>, context: McpContext): Promise<ToolCallResult>;
}

/** Tool names a conforming client accepts (the spec's SHOULD, enforced at wire-in). */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The wired-in tools by name. Wire-in is the one validated site: a duplicate or malformed name is a
 * `McpConfigurationError` at module init. Listing order is by name, so tools/list is deterministic.
 */
@Injectable()
export class ToolRegistry {
  private readonly tools = new Map<string, WiredTool>();
  private sorted: WiredTool[] = [];

  /** Supplies a tool; refuses a malformed or duplicate name. */
  wireIn(tool: WiredTool): void {
    if (!TOOL_NAME.test(tool.name))
      throw new McpConfigurationError(`tool ${JSON.stringify(tool.name)}`, 'a tool name must be 1–128 characters of A-Z, a-z, 0-9, "_", "-" and "."');
    if (this.tools.has(tool.name)) throw new McpConfigurationError(`tool "${tool.name}"`, 'is declared more than once (tool names are unique in a server)');
    this.tools.set(tool.name, tool);
    this.sorted = [...this.tools.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get(name: string): WiredTool | undefined {
    return this.tools.get(name);
  }

  /** Every tool, sorted by name. */
  list(): readonly WiredTool[] {
    return this.sorted;
  }

  get size(): number {
    return this.tools.size;
  }
}

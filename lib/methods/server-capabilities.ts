import { Injectable } from '@nestjs/common';
import { ToolRegistry } from '../tools/tool.registry.js';

/**
 * The server capabilities this mount advertises in `server/discover`, derived from what module init wired in:
 * `tools` when any tool is wired in, which is always: the framework's help tool is wired into every mount. A capability is advertised exactly when its methods are served, so a client
 * that reads the capabilities is never told something the routing would contradict.
 */
@Injectable()
export class ServerCapabilities {
  constructor(private readonly tools: ToolRegistry) {}

  /** The capabilities object (MCP `ServerCapabilities`). */
  current(): Record<string, Record<string, unknown>> {
    const capabilities: Record<string, Record<string, unknown>> = {};
    if (this.tools.size > 0) capabilities.tools = {};
    return capabilities;
  }
}

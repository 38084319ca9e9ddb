import { Injectable } from '@nestjs/common';
import { ToolRegistry } from '../tools/tool.registry.js';

/**
 * The server capabilities this mount advertises in `server/discover`, derived from what module init wired in:
 * `tools` when any tool is wired in, which is always (the framework's help tool is wired into every mount), and
 * with it `logging`, because every tool's context carries a request logger that may send
 * `notifications/message` (a server that emits logs declares `logging`, R201; it still sends none unless a
 * request asks for a log level). A capability is advertised exactly when its methods are served, so a client
 * that reads the capabilities is never told something the routing would contradict.
 */
@Injectable()
export class ServerCapabilities {
  constructor(private readonly tools: ToolRegistry) {}

  /** The capabilities object (MCP `ServerCapabilities`). */
  current(): Record<string, Record<string, unknown>> {
    const capabilities: Record<string, Record<string, unknown>> = {};
    if (this.tools.size > 0) {
      capabilities.tools = {};
      capabilities.logging = {};
    }
    return capabilities;
  }
}

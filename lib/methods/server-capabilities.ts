import { Injectable } from '@nestjs/common';

import { ToolRegistry } from '../tools/tool.registry.js';

/**
 * The capabilities advertised in `server/discover`: exactly those whose methods are served. `tools` (every mount
 * has the help tool) and with it `logging`, since any tool may log once a request asks for a level; see
 * https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging.
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

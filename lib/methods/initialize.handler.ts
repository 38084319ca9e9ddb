import { Inject, Injectable } from '@nestjs/common';

import { META_KEYS, SESSION_ID_HEADER } from '../mcp.constants.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { issueSessionId } from '../protocol/session-id.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';
import { ServerCapabilities } from './server-capabilities.js';

/**
 * `initialize` (legacy era): the version negotiated (the client's when served, else the newest legacy one; see
 * `negotiatedVersion`), the server's capabilities, identity and instructions. Stateless: the `Mcp-Session-Id` it
 * issues carries the revision and the client's input capabilities, and the server keeps nothing (`issueSessionId`).
 */
@Injectable()
export class InitializeHandler implements McpMethodHandler {
  readonly method = 'initialize' as const;
  readonly eras = ['legacy'] as const;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly capabilities: ServerCapabilities,
  ) {}

  served(): boolean {
    return true;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    const meta = call.record.meta!;
    call.answer.setHeader(SESSION_ID_HEADER, issueSessionId(meta[META_KEYS.protocolVersion] as string, meta[META_KEYS.clientCapabilities]));
    const result: McpResult = {
      resultType: 'complete',
      protocolVersion: meta[META_KEYS.protocolVersion],
      capabilities: this.capabilities.current('legacy'),
      serverInfo: this.options.serverInfo,
    };
    if (this.options.instructions !== undefined) result.instructions = this.options.instructions;
    return result;
  }
}

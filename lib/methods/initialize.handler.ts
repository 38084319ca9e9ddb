import { Inject, Injectable } from '@nestjs/common';

import { META_KEYS, SESSION_ID_HEADER } from '../mcp.constants.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { sharedResult, type McpResult } from '../protocol/json-rpc.js';
import { issueSessionId } from '../protocol/session-id.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';
import { ServerCapabilities } from './server-capabilities.js';

/**
 * `initialize` (legacy era): the version negotiated (the client's when served, else the newest legacy one; see
 * `negotiatedVersion`), the server's capabilities, identity and instructions. Stateless: the `Mcp-Session-Id` it
 * issues carries the revision and the client's input capabilities, and the server keeps nothing (`issueSessionId`).
 * The result depends on the negotiated version alone (one of `LEGACY_PROTOCOL_VERSIONS`): one shared result each,
 * made at its first request and serialized once.
 */
@Injectable()
export class InitializeHandler implements McpMethodHandler {
  readonly method = 'initialize' as const;
  readonly eras = ['legacy'] as const;
  /** The result by negotiated version. */
  private readonly results = new Map<string, McpResult>();

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly capabilities: ServerCapabilities,
  ) {}

  served(): boolean {
    return true;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    const meta = call.record.meta!;
    const version = meta[META_KEYS.protocolVersion] as string;
    call.answer.setHeader(SESSION_ID_HEADER, issueSessionId(version, meta[META_KEYS.clientCapabilities]));
    let result = this.results.get(version);
    if (!result) this.results.set(version, (result = this.made(version)));
    return result;
  }

  private made(version: string): McpResult {
    const result: McpResult = {
      resultType: 'complete',
      protocolVersion: version,
      capabilities: this.capabilities.current('legacy'),
      serverInfo: this.options.serverInfo,
    };
    if (this.options.instructions !== undefined) result.instructions = this.options.instructions;
    return sharedResult(result);
  }
}

import { Inject, Injectable } from '@nestjs/common';

import { SUPPORTED_PROTOCOL_VERSIONS } from '../mcp.constants.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { sharedResult, type McpResult } from '../protocol/json-rpc.js';
import type { McpMethodHandler } from './method-handler.interface.js';
import { ServerCapabilities } from './server-capabilities.js';

/**
 * `server/discover`: the versions this server serves, its capabilities and its instructions. Served by every
 * mount. The serverInfo `_meta` and the caching hints are added by the method router, as on every result. Nothing
 * in it changes after module init, so it is one shared result, made at the first request (when the capabilities
 * are gathered) and serialized once.
 */
@Injectable()
export class ServerDiscoverHandler implements McpMethodHandler {
  readonly method = 'server/discover' as const;
  readonly eras = ['modern'] as const;
  private result: McpResult | undefined;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly capabilities: ServerCapabilities,
  ) {}

  served(): boolean {
    return true;
  }

  async handle(): Promise<McpResult> {
    return (this.result ??= this.made());
  }

  private made(): McpResult {
    const result: McpResult = {
      resultType: 'complete',
      supportedVersions: Object.freeze([...SUPPORTED_PROTOCOL_VERSIONS]),
      capabilities: this.capabilities.current('modern'),
    };
    if (this.options.instructions !== undefined) result.instructions = this.options.instructions;
    return sharedResult(result);
  }
}

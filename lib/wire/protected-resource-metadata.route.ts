import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { nodeResponse } from '../util/node-http.js';
import { protectedResourceMetadataUrl } from './protected-resource-metadata.js';

/**
 * Serves RFC 9728 protected-resource metadata (GET, JSON) at exactly the path the auth check's challenges name:
 * the well-known URL of `protectedResourceMetadata.resource`. Registered on the HTTP adapter itself at module
 * init, so a host's global prefix or versioning cannot move it away from where clients are told to look; absent
 * unless both the option and an auth provider are set.
 */
@Injectable()
export class ProtectedResourceMetadataRoute implements OnModuleInit {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const metadata = this.options.protectedResourceMetadata;
    const adapter = this.adapterHost.httpAdapter;
    if (!metadata || !this.options.auth || !adapter) return; // without a provider there is nothing to protect
    const body = JSON.stringify(metadata);
    adapter.get(new URL(protectedResourceMetadataUrl(metadata.resource)).pathname, (_req: unknown, reply: unknown) => {
      const res = nodeResponse(reply);
      res.statusCode = 200;
      res.setHeader('content-type', 'application/json');
      res.setHeader('cache-control', 'public, max-age=3600');
      res.end(body);
    });
  }
}

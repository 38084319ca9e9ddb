import type { Server } from 'node:http';

import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { isLoopbackAddress } from './loopback.js';

const logger = new Logger('Mcp');

/** The warning given when a mount with neither `allowedOrigins` nor `auth` is served beyond loopback. */
export const openMountWarning = (path: string, address: string): string =>
  `the mount "${path}" is served on ${address}, beyond loopback, with neither allowedOrigins nor auth: the origin check admits any ` +
  'origin there, so any web page opened by someone who can reach this server can call its tools (a browser sends such a POST ' +
  'cross-origin without asking). Set allowedOrigins, or an auth provider (SECURITY.md); if a guard of your own authenticates ' +
  'every request to the mount, this does not apply.';

/**
 * Warns once, when the host's HTTP server starts listening on an address that is not loopback, that this mount has
 * neither `allowedOrigins` nor `auth`: off loopback the origin check lets any origin through unless told otherwise.
 */
@Injectable()
export class OpenMountWarning implements OnApplicationBootstrap {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.allowedOrigins !== undefined || this.options.auth !== undefined) return;
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (typeof server?.once !== 'function') return;
    server.once('listening', () => {
      const address = server.address();
      if (typeof address === 'object' && address !== null && !isLoopbackAddress(address.address)) logger.warn(openMountWarning(this.options.path, address.address));
    });
  }
}

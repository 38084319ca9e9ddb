import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { McpResolvedOptions } from '../mcp-module-options.interface.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { quoted } from '../util/bounded.js';
import { isLoopbackAddress, isLoopbackHost, isLoopbackOrigin } from './loopback.js';

/**
 * The origin check: a wire check (order: `wire-checks.ts`), DNS-rebinding protection.
 * - A duplicated `Origin` header is refused (400) whatever the configuration.
 * - With the `allowedOrigins` option, a present `Origin` not on the list is refused (403).
 * - Without it, a request that arrived on a loopback address (the server is reachable only locally) is
 *   accepted only from a loopback origin; elsewhere any origin passes (non-browser clients send none).
 * - A request that arrived on a loopback address must also name a loopback host, or one of `allowedHosts`, in
 *   `Host` (403 otherwise), so a rebound DNS name cannot reach a local server.
 * An absent `Origin` passes. Every refusal is an id-less JSON-RPC error body.
 * @publicApi
 */
@Injectable()
export class OriginGuard implements CanActivate {
  static readonly rejecter = 'origin-check' as const;

  constructor(@Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    const origins = req.headersDistinct.origin;
    if (origins && origins.length > 1)
      throw new RejectionException('origin-check', 'duplicate_origin', 'Bad request: the Origin header is sent more than once.');
    const origin = origins?.[0];
    const local = isLoopbackAddress(req.socket?.localAddress);
    if (origin !== undefined) {
      const allowed = this.options.allowedOrigins
        ? this.options.allowedOrigins.includes(origin)
        : !local || isLoopbackOrigin(origin);
      if (!allowed)
        throw new RejectionException('origin-check', 'forbidden_origin', `Forbidden: origin ${quoted(origin, 100)} is not allowed.`);
    }
    if (local) {
      const hosts = req.headersDistinct.host;
      const host = hosts?.length === 1 ? hosts[0]! : undefined;
      if (host === undefined || !(isLoopbackHost(host) || this.options.allowedHosts.includes(host)))
        throw new RejectionException(
          'origin-check',
          'forbidden_host',
          `Forbidden: host ${host === undefined ? '(missing or repeated)' : quoted(host, 100)} is not allowed for a server reached on loopback.`,
        );
    }
    return true;
  }
}

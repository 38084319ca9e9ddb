import type { IncomingMessage } from 'node:http';

import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';

import { passOn, type ChainStage } from '../contracts/chain-stage.js';
import { headerLines } from '../contracts/request-record.js';
import { RejectionException } from '../errors/rejection.exception.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { quoted } from '../util/bounded.js';
import { headerLinesMayBeCut } from '../util/header-lines.js';
import { isLoopbackAddress, isLoopbackHost, isLoopbackOrigin } from './loopback.js';

/**
 * The origin check: the wire check for DNS-rebinding protection. In the order it decides:
 *
 * | condition                                                              | answer                 |
 * |------------------------------------------------------------------------|------------------------|
 * | as many header lines as the server reads, on a Node that drops the rest | 431 `too_many_header_lines` |
 * | `Origin` sent more than once                                           | 400 `duplicate_origin` |
 * | `Host` sent more than once (RFC 9112 §3.2)                             | 400 `duplicate_host`   |
 * | `allowedOrigins` set, `Origin` present and not listed (exact match)    | 403 `forbidden_origin` |
 * | no `allowedOrigins`, request arrived on loopback, `Origin` not loopback | 403 `forbidden_origin` |
 * | request arrived on loopback, `Host` not a loopback name nor in `allowedHosts` | 403 `forbidden_host` |
 *
 * On HTTP/2 the host comes in `:authority`, checked as `Host` is (and so is a `Host` sent beside it).
 *
 * "Arrived on loopback" reads the socket's local address, not the bound one: a `0.0.0.0` server reached through
 * `127.0.0.1` is what a rebound DNS name reaches. A 403 names the option that would admit the value (a developer
 * behind a same-host proxy meets it first). See docs/wire-checks.md.
 * Proven by: test/e2e/origin.e2e-spec.ts, test/sweeps/wire-checks.sweep.e2e-spec.ts
 * @publicApi
 */
@Injectable()
export class OriginGuard implements ChainStage {
  /** The rejecter name this check's rejection marks carry. */
  static readonly rejecter = 'origin-check' as const;
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(@Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions) {
    this.allowedHosts = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  }

  /** Refuses the request (throws a `RejectionException`) or lets it through; never returns false. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return passOn(this, context);
  }

  /** Whether `allowedHosts` lists the (lower-cased) `Host`: exactly, or its name alone when listed without a port. */
  private hostAllowed(host: string): boolean {
    if (this.allowedHosts.has(host)) return true;
    const colon = host.lastIndexOf(':');
    return colon > host.lastIndexOf(']') && /^\d+$/.test(host.slice(colon + 1)) && this.allowedHosts.has(host.slice(0, colon));
  }

  pass(req: IncomingMessage): boolean {
    if (headerLinesMayBeCut(req))
      throw new RejectionException(
        'origin-check',
        'too_many_header_lines',
        `Request header fields too large: the request has ${req.rawHeaders.length / 2} header lines, as many as this server reads, so lines past them may have been dropped unseen (a repeated Host, Origin or MCP header among them); send fewer lines.`,
      );
    const lines = headerLines(req);
    if (lines.repeated('origin')) throw new RejectionException('origin-check', 'duplicate_origin', 'Bad request: the Origin header is sent more than once; send it once.');
    if (lines.repeated('host')) throw new RejectionException('origin-check', 'duplicate_host', 'Bad request: the Host header is sent more than once; send it once.');
    const origin = lines.value('origin');
    const local = isLoopbackAddress(req.socket?.localAddress);
    if (origin !== undefined && !this.originAllowed(origin, local))
      throw new RejectionException(
        'origin-check',
        'forbidden_origin',
        this.options.allowedOrigins
          ? `Forbidden: the Origin header value ${quoted(origin, 100)} is not allowed; the server admits an origin by listing it in its allowedOrigins option (compared exactly).`
          : `Forbidden: the Origin header value ${quoted(origin, 100)} is not a loopback origin, and a request arriving on a loopback address may carry another only when the server lists it in its allowedOrigins option.`,
      );
    if (!local) return true;
    const host = lines.value('host');
    // HTTP/2 names the host in the `:authority` pseudo-header (RFC 9113 §8.3.1), which Node lists among the lines.
    const authority = lines.value(':authority');
    if (host === undefined && authority === undefined)
      throw new RejectionException('origin-check', 'forbidden_host', 'Forbidden: the Host header is required on a request that arrives on a loopback address.');
    if (host !== undefined) this.checkHost('Host header', host);
    if (authority !== undefined) this.checkHost(':authority pseudo-header', authority);
    return true;
  }

  /** Refuses a request that arrived on loopback naming a host (`what`: where it named it) that is neither loopback nor in `allowedHosts`. */
  private checkHost(what: string, host: string): void {
    if (isLoopbackHost(host) || this.hostAllowed(host.toLowerCase())) return;
    throw new RejectionException(
      'origin-check',
      'forbidden_host',
      `Forbidden: the ${what} value ${quoted(host, 100)} is not a loopback name, and a request arriving on a loopback address may carry another only when the server lists it in its allowedHosts option.`,
    );
  }

  private originAllowed(origin: string, local: boolean): boolean {
    if (this.options.allowedOrigins) return this.options.allowedOrigins.includes(origin);
    return !local || isLoopbackOrigin(origin);
  }
}

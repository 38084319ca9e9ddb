import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { McpResolvedOptions } from '../mcp-module-options.interface.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { faultKind, publish } from '../telemetry/channels.js';
import { requestState } from '../protocol/request-state.js';
import { bounded, scrub } from '../util/bounded.js';
import { McpAuth, type McpAuthDecision } from './mcp-auth.interface.js';
import { protectedResourceMetadataUrl } from './protected-resource-metadata.js';

/**
 * A fault in the consumer's auth provider (it threw, or returned no valid decision). Contained by the rejection
 * sender: answered 500 with a JSON-RPC -32603 body and an `mcp:auth:error` event; never a pass.
 */
export class AuthFault extends Error {
  override readonly name = 'AuthFault';
  constructor(readonly thrown: unknown) {
    super('The auth provider failed.');
  }
}

const quote = (value: string) => `"${scrub(value).replace(/["\\]/g, '\\$&')}"`;

/**
 * The auth check: a wire check (order: `wire-checks.ts`) that asks the configured `McpAuth` provider about every
 * request. `deny` is 401 with a `WWW-Authenticate: Bearer` challenge; `insufficient_scope` is 403 with
 * `error="insufficient_scope"` and the needed `scope`; both carry `resource_metadata` when the module serves
 * protected-resource metadata. A request with more than one `Authorization` header is refused (401,
 * `invalid_request`) before the provider is asked. What `allow` returns reaches the tools.
 * @publicApi
 */
@Injectable()
export class McpAuthGuard implements CanActivate {
  static readonly rejecter = 'auth-check' as const;
  private readonly resourceMetadata: string | undefined;

  constructor(
    @Inject(McpAuth) private readonly auth: McpAuth,
    @Inject(MCP_OPTIONS) options: McpResolvedOptions,
  ) {
    this.resourceMetadata = options.protectedResourceMetadata && protectedResourceMetadataUrl(options.protectedResourceMetadata.resource);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    if ((req.headersDistinct.authorization?.length ?? 0) > 1)
      throw this.refuse({ outcome: 'deny', error: 'invalid_request', description: 'Authorization header sent more than once' });
    let decision: McpAuthDecision;
    try {
      decision = await this.auth.authenticate(req);
    } catch (thrown) {
      throw this.fault(thrown);
    }
    if (decision?.outcome === 'allow') {
      requestState(req).auth = decision.info;
      return true;
    }
    if (decision?.outcome === 'deny' || (decision?.outcome === 'insufficient_scope' && typeof decision.scope === 'string'))
      throw this.refuse(decision);
    throw this.fault(new TypeError(`authenticate() returned ${bounded(decision, 60)}, not an McpAuthDecision`));
  }

  private fault(thrown: unknown): AuthFault {
    publish('mcp:auth:error', () => ({ exception: faultKind(thrown), error: bounded(thrown, 200) }));
    return new AuthFault(thrown);
  }

  private refuse(decision: Exclude<McpAuthDecision, { outcome: 'allow' }>): RejectionException {
    const parts: string[] = [];
    if (this.resourceMetadata) parts.push(`resource_metadata=${quote(this.resourceMetadata)}`);
    if (decision.scope !== undefined) parts.push(`scope=${quote(decision.scope)}`);
    const error = decision.outcome === 'insufficient_scope' ? 'insufficient_scope' : decision.error;
    if (error) parts.push(`error=${quote(error)}`);
    if (decision.description) parts.push(`error_description=${quote(bounded(decision.description, 200))}`);
    const headers = { 'www-authenticate': parts.length ? `Bearer ${parts.join(', ')}` : 'Bearer' };
    return decision.outcome === 'insufficient_scope'
      ? new RejectionException('auth-check', 'insufficient_scope', `Forbidden: this request needs scope ${bounded(decision.scope, 200)}.`, { headers })
      : new RejectionException('auth-check', 'unauthorized', 'Unauthorized: a valid bearer token is required.', { headers });
  }
}

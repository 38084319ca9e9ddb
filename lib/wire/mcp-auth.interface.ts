import type { IncomingMessage } from 'node:http';

/**
 * What an auth provider knows about the caller once it let a request through: it reaches every tool through
 * its context. `subject` and `scopes` are conventional; add whatever else the tools need.
 * @publicApi
 */
export interface McpAuthInfo {
  /** Who the caller is (for example the token's `sub`). */
  readonly subject?: string;
  /** The scopes the caller's token grants. */
  readonly scopes?: readonly string[];
  readonly [claim: string]: unknown;
}

/**
 * An auth provider's decision for one request.
 * - `allow`: the request proceeds; `info` reaches the tools.
 * - `deny`: 401 with a `WWW-Authenticate: Bearer` challenge (`error`, `error_description`, `scope` as given,
 *   plus `resource_metadata` when the module serves protected-resource metadata).
 * - `insufficient_scope`: 403 with `error="insufficient_scope"` and the `scope` the operation needs.
 * @publicApi
 */
export type McpAuthDecision =
  | { readonly outcome: 'allow'; readonly info?: McpAuthInfo }
  | { readonly outcome: 'deny'; readonly error?: 'invalid_token' | 'invalid_request'; readonly description?: string; readonly scope?: string }
  | { readonly outcome: 'insufficient_scope'; readonly scope: string; readonly description?: string };

/** Builders for {@link McpAuthDecision} values. @publicApi */
export const McpAuthDecision = {
  /** Let the request through, with what the tools should know about the caller. */
  allow: (info?: McpAuthInfo): McpAuthDecision => ({ outcome: 'allow', info }),
  /** Refuse with 401; `error` is `invalid_token` for a bad or expired token, absent when none was sent. */
  deny: (options: { error?: 'invalid_token' | 'invalid_request'; description?: string; scope?: string } = {}): McpAuthDecision => ({
    outcome: 'deny',
    ...options,
  }),
  /** Refuse with 403: the token is valid but lacks `scope` (space-separated, every scope needed). */
  insufficientScope: (scope: string, description?: string): McpAuthDecision => ({ outcome: 'insufficient_scope', scope, description }),
} as const;

/**
 * The auth behaviour: the consumer's contract for deciding, per request, whether the caller may proceed. Every
 * request is authenticated on its own (there is no session to remember a caller). A provider that throws is a
 * fault: the request is answered 500 and never let through.
 *
 * @example
 * ```ts
 * @Injectable()
 * export class BearerAuth implements McpAuth {
 *   async authenticate(req: IncomingMessage) {
 *     const token = bearerToken(req);
 *     if (!token) return McpAuthDecision.deny();
 *     const claims = await verify(token); // your verifier: signature, expiry, audience
 *     return claims ? McpAuthDecision.allow({ subject: claims.sub, scopes: claims.scope.split(' ') })
 *                   : McpAuthDecision.deny({ error: 'invalid_token' });
 *   }
 * }
 * ```
 * @publicApi
 */
export interface McpAuth {
  authenticate(request: IncomingMessage): McpAuthDecision | Promise<McpAuthDecision>;
}

/** Injection token of the module's auth provider; named like the interface so `@Inject(McpAuth) auth: McpAuth` reads as one concept. @publicApi */
export const McpAuth = Symbol.for('nest-mcp.McpAuth');

/** The default auth provider: lets every request through with no identity. @publicApi */
export class NoopAuth implements McpAuth {
  authenticate(): McpAuthDecision {
    return { outcome: 'allow' };
  }
}

/** Reads the bearer token of a request's single `Authorization: Bearer …` header, or undefined. @publicApi */
export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header) : null;
  return match?.[1];
}

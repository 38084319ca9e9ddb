import type { IncomingMessage } from 'node:http';

/**
 * What an auth provider knows about the caller once it let a request through: it reaches every tool through
 * its context (`McpContext.auth`). `subject` and `scopes` are conventional; add whatever else the tools need.
 * @publicApi
 */
export interface McpAuthInfo {
  /** Who the caller is (for example the token's `sub`). */
  readonly subject?: string;
  /** The scopes the caller's token grants. */
  readonly scopes?: readonly string[];
  /** Any other claim the tools need. */
  readonly [claim: string]: unknown;
}

/**
 * An auth provider's decision for one request (RFC 6750 §3 for the challenge):
 * - `allow`: the request proceeds; `info` reaches the tools.
 * - `deny`: 401 with a `WWW-Authenticate: Bearer` challenge carrying `error` (`invalid_token` for a bad or
 *   expired token; none when no credentials were sent), `error_description`, `scope` as given, plus
 *   `resource_metadata` when the module serves protected-resource metadata. With `error: 'invalid_request'`
 *   (a malformed authorization request) the status is 400 instead.
 * - `insufficient_scope`: 403 with `error="insufficient_scope"` and the `scope` the operation needs.
 *
 * `scope` is a space-separated list of scope tokens (RFC 6749 §3.3); `description` is plain text, of which only
 * the printable ASCII the challenge syntax allows is sent, bounded.
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
  /**
   * Refuse: 401 (400 with `error: 'invalid_request'`). `error` is `invalid_token` for a bad or expired token,
   * absent when no token was sent.
   */
  deny: (options: { error?: 'invalid_token' | 'invalid_request'; description?: string; scope?: string } = {}): McpAuthDecision => ({
    outcome: 'deny',
    ...options,
  }),
  /** Refuse with 403: the token is valid but lacks `scope` (space-separated, every scope needed). */
  insufficientScope: (scope: string, description?: string): McpAuthDecision => ({ outcome: 'insufficient_scope', scope, description }),
} as const;

/**
 * The auth behaviour: the consumer's contract for deciding, per request, whether the caller may proceed. Every
 * request is authenticated on its own (there is no session to remember a caller). The auth check
 * (`McpAuthGuard`) calls it; a provider that throws, or returns anything but an {@link McpAuthDecision}, is a
 * fault: the request is answered 500 and never let through.
 *
 * The provider validates the token itself (OAuth 2.1 §5.2, including the audience: a token issued for another
 * resource must be refused) and accounts for scope hierarchies.
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
  /** Decides whether this one request may proceed, and who its caller is. */
  authenticate(request: IncomingMessage): McpAuthDecision | Promise<McpAuthDecision>;
}

/** Injection token of the module's auth provider; named like the interface so `@Inject(McpAuth) auth: McpAuth` reads as one concept. @publicApi */
export const McpAuth = Symbol.for('nest-mcp.McpAuth');

/** The default auth provider: lets every request through with no identity. @publicApi */
export class NoopAuth implements McpAuth {
  /** Allows the request, with no identity. */
  authenticate(): McpAuthDecision {
    return { outcome: 'allow' };
  }
}

/**
 * Reads the bearer token (RFC 6750 `b64token`) of a request's single `Authorization: Bearer …` header, or
 * undefined. A repeated `Authorization` header never reaches a provider: the auth check refuses it first.
 * @publicApi
 */
export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header) : null;
  return match?.[1];
}

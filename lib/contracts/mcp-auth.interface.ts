import type { IncomingMessage } from 'node:http';

/**
 * What an auth provider knows about the caller it let through; it reaches every tool as `McpContext.auth`.
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
 * An auth provider's decision for one request: `allow` passes `info` to the tools, `deny` answers 401 (400 for
 * `invalid_request`) and `insufficient_scope` 403, each with a `WWW-Authenticate: Bearer` challenge (RFC 6750 §3).
 * See docs/wire-checks.md.
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
  /** Refuse with 401 (400 for `invalid_request`); no `error` when no token was sent, `invalid_token` for a bad one. */
  deny: (options: { error?: 'invalid_token' | 'invalid_request'; description?: string; scope?: string } = {}): McpAuthDecision => ({
    outcome: 'deny',
    ...options,
  }),
  /** Refuse with 403: the token is valid but lacks `scope` (space-separated, every scope needed). */
  insufficientScope: (scope: string, description?: string): McpAuthDecision => ({ outcome: 'insufficient_scope', scope, description }),
} as const;

/**
 * The consumer's auth provider, asked by `McpAuthGuard` on every request (there is no session); a throw or a
 * non-{@link McpAuthDecision} is a fault answered 500, never a pass, but a thrown Nest `HttpException` of 401, 403 or
 * 400 (a Passport habit), which is the refusal it names. It validates the token fully, audience
 * included (OAuth 2.1 §5.2).
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

/** Injection token of the auth provider, named like the interface so `@Inject(McpAuth) auth: McpAuth` reads as one. @publicApi */
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
 * undefined; the auth check refuses a repeated header before any provider runs.
 * @publicApi
 */
export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header) : null;
  return match?.[1];
}

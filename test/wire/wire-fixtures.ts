import type { IncomingMessage } from 'node:http';

import { McpAuthDecision, McpTool, bearerToken, type McpAuth, type McpContext, type McpPlainTool } from '../../lib/index.js';

/** A tool with one header annotation per mirrorable type, one nested under a pure `properties` chain. */
@McpTool({
  name: 'mirror',
  description: 'Echoes its arguments; count, flag, region and nested.zone are mirrored into headers.',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      count: { type: 'integer', 'x-mcp-header': 'Count' },
      flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
      nested: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
      plain: { type: 'string' },
    },
  },
})
export class MirrorTool implements McpPlainTool {
  /** Answers with the arguments it received. */
  run(args: Record<string, unknown>): unknown {
    return { received: args };
  }
}

/** A tool that answers with what the auth provider returned for the request (`McpContext.auth`). */
@McpTool({ name: 'whoami', description: 'Tells the caller who the auth provider said they are.', inputSchema: { type: 'object' } })
export class WhoAmITool implements McpPlainTool {
  /** Answers with the context's auth info. */
  run(_args: Record<string, unknown>, ctx: McpContext): unknown {
    return { auth: ctx.auth ?? null };
  }
}

/** The one token {@link TokenAuth} lets through. */
export const GOOD_TOKEN = 'good-token';

/**
 * A bearer-token provider for tests: `good-token` passes as alice; no token is a plain refusal; a few fixed tokens
 * produce each decision, and a few produce garbage, to prove a misbehaving provider is a fault.
 */
export class TokenAuth implements McpAuth {
  /** How many times the provider was asked. */
  calls = 0;

  /** Decides from the bearer token alone. */
  authenticate(req: IncomingMessage): McpAuthDecision {
    this.calls++;
    const token = bearerToken(req);
    switch (token) {
      case undefined:
        return McpAuthDecision.deny();
      case GOOD_TOKEN:
        return McpAuthDecision.allow({ subject: 'alice', scopes: ['tools:read'], tenant: 'acme' });
      case 'expired':
        return McpAuthDecision.deny({ error: 'invalid_token', description: `The token "expired" \\ yesterday → ✓ ${'x'.repeat(400)}` });
      case 'reader':
        return McpAuthDecision.insufficientScope('tools:call tools:admin', 'This call needs tools:call and tools:admin.');
      case 'malformed':
        return McpAuthDecision.deny({ error: 'invalid_request', description: 'The token is malformed.' });
      case 'deny-with-scope':
        return McpAuthDecision.deny({ error: 'invalid_token', scope: 'tools:call tools:admin' });
      case 'description-200':
        return McpAuthDecision.deny({ error: 'invalid_token', description: 'd'.repeat(200) });
      case 'long-scope':
        return McpAuthDecision.insufficientScope(`tools:${'s'.repeat(300)}`);
      case 'throws':
        throw new Error('the key store is down');
      case 'throws-long':
        throw new Error(`the key store is down: ${'x'.repeat(5000)}`);
      default:
        return Object.hasOwn(GARBAGE, token) ? GARBAGE[token]! : McpAuthDecision.deny({ error: 'invalid_token' });
    }
  }
}

/** Tokens for which {@link TokenAuth} returns something that is not a valid decision. */
export const GARBAGE: Record<string, McpAuthDecision> = {
  'returns-undefined': undefined as unknown as McpAuthDecision,
  'returns-true': true as unknown as McpAuthDecision,
  'unknown-outcome': { outcome: 'maybe' } as unknown as McpAuthDecision,
  'info-not-object': { outcome: 'allow', info: 'alice' } as unknown as McpAuthDecision,
  'scopes-not-strings': { outcome: 'allow', info: { scopes: [1, 2] } } as unknown as McpAuthDecision,
  'subject-not-string': { outcome: 'allow', info: { subject: 42 } } as unknown as McpAuthDecision,
  'scope-with-quote': { outcome: 'insufficient_scope', scope: 'a"b' },
  'scope-missing': { outcome: 'insufficient_scope' } as unknown as McpAuthDecision,
  'deny-unknown-error': { outcome: 'deny', error: 'server_error' } as unknown as McpAuthDecision,
  'deny-insufficient-scope-error': { outcome: 'deny', error: 'insufficient_scope' } as unknown as McpAuthDecision,
  'deny-scope-with-quote': { outcome: 'deny', scope: 'a"b' },
  'scope-double-space': { outcome: 'insufficient_scope', scope: 'tools:call  tools:admin' },
  'description-not-string': { outcome: 'deny', description: 42 } as unknown as McpAuthDecision,
  'getter-throws': Object.defineProperty({}, 'outcome', {
    get() {
      throw new Error('getter');
    },
  }) as unknown as McpAuthDecision,
};

/** `TokenAuth` answering through a promise (settled a macrotask later), as a provider asking an identity service does. */
export class AsyncTokenAuth implements McpAuth {
  private readonly tokens = new TokenAuth();

  async authenticate(req: IncomingMessage): Promise<McpAuthDecision> {
    await new Promise((resolve) => setImmediate(resolve));
    return this.tokens.authenticate(req);
  }
}

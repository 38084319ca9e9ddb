import diagnosticsChannel from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { BadRequestException, ForbiddenException, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import request from 'supertest';

import { bearerToken, McpAuthDecision, McpTool, type McpAuth, type McpContext } from '../../lib/index.js';
import { meta, post, recordEvents, rejectionOf, rpc } from '../support/mcp-client.js';
import { portOf } from '../support/raw-http.js';
import { SleeperTool, TASK_CAPS, taskRuns } from '../support/task-tools.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { AsyncTokenAuth, GARBAGE, GOOD_TOKEN, TokenAuth, WhoAmITool } from '../wire/wire-fixtures.js';

const METADATA = {
  resource: 'https://mcp.example.com/mcp',
  authorization_servers: ['https://auth.example.com'],
  scopes_supported: ['tools:read', 'tools:call'],
  bearer_methods_supported: ['header'],
};
const METADATA_URL = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

const whoami = () => rpc('tools/call', { name: 'whoami', arguments: {} });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The auth-params of a `Bearer` challenge, parsed (quoted-string values, RFC 9110 §11). */
function challenge(header: string | undefined): Record<string, string> {
  expect(header).toMatch(/^Bearer(?: |$)/);
  const params: Record<string, string> = {};
  const rest = header!.slice('Bearer'.length);
  const param = /\s*([A-Za-z_]+)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/gy;
  let consumed = 0;
  for (let match = param.exec(rest); match; match = param.exec(rest)) {
    params[match[1]!] = match[2]!.replace(/\\(.)/g, '$1');
    consumed = param.lastIndex;
  }
  expect(rest.slice(consumed).trim()).toBe('');
  return params;
}

/** A tool that tells whether the `McpContext.auth` it was handed can be changed. */
@McpTool({ name: 'auth_probe', description: 'Tells whether its McpContext.auth is frozen.', inputSchema: { type: 'object' } })
class AuthProbeTool {
  run(_args: Record<string, unknown>, ctx: McpContext): unknown {
    return { frozen: Object.isFrozen(ctx.auth) };
  }
}

describe('auth check with a bearer-token provider and protected-resource metadata', () => {
  let t: TestApp;
  const auth = new TokenAuth();
  beforeAll(async () => {
    t = await createTestApp({ providers: [WhoAmITool, AuthProbeTool], options: { auth, protectedResourceMetadata: METADATA } });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    auth.calls = 0;
  });

  it('refuses a request without a token with 401, a Bearer challenge naming resource_metadata, and an id-less JSON-RPC error', async () => {
    let res: any;
    const events = await recordEvents(['mcp:wire:reject', 'mcp:tool:start'], async () => (res = await post(t.server, whoami())));
    expect(res.status).toBe(401);
    expect(challenge(res.headers['www-authenticate'])).toEqual({ resource_metadata: METADATA_URL });
    expect(res.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Unauthorized: this request needs a valid bearer token.' } });
    expect(events.map((e) => e.channel)).toEqual(['mcp:wire:reject']);
    expect(events[0]!.message).toMatchObject({ rejecter: 'auth-check', reason: 'unauthorized', status: 401 });
  });

  it('refuses an invalid token with 401 and error="invalid_token", its description reduced to what a challenge may carry', async () => {
    const res = await post(t.server, whoami(), bearer('expired'));
    expect(res.status).toBe(401);
    const header = res.headers['www-authenticate'] as string;
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    const params = challenge(header);
    expect(params.error).toBe('invalid_token');
    expect(params.resource_metadata).toBe(METADATA_URL);
    expect(params.error_description).toMatch(/^The token \?expired\? \? yesterday \? \? x+\.\.\.$/);
    expect(params.error_description!.length).toBe(200);
    expect(res.body.error.message).toBe('Unauthorized: the bearer token is invalid or expired.');
  });

  it('refuses a token without the needed scope with 403, error="insufficient_scope", every needed scope and resource_metadata', async () => {
    let res: any;
    const mark = await rejectionOf(async () => (res = await post(t.server, whoami(), bearer('reader'))));
    expect(res.status).toBe(403);
    expect(challenge(res.headers['www-authenticate'])).toEqual({
      error: 'insufficient_scope',
      error_description: 'This call needs tools:call and tools:admin.',
      scope: 'tools:call tools:admin',
      resource_metadata: METADATA_URL,
    });
    expect(res.body.error).toEqual({ code: -32600, message: 'Forbidden: this request needs scope "tools:call tools:admin".' });
    expect(mark).toEqual({ rejecter: 'auth-check', reason: 'insufficient_scope' });
  });

  it("answers a provider's invalid_request refusal with 400 (RFC 6750 §3.1)", async () => {
    let res: any;
    const mark = await rejectionOf(async () => (res = await post(t.server, whoami(), bearer('malformed'))));
    expect(res.status).toBe(400);
    expect(challenge(res.headers['www-authenticate']).error).toBe('invalid_request');
    expect(mark).toEqual({ rejecter: 'auth-check', reason: 'invalid_request' });
  });

  it('refuses a repeated Authorization header with 400 before asking the provider, even when both lines carry a good token', async () => {
    let res: any;
    const mark = await rejectionOf(async () => (res = await post(t.server, whoami(), { authorization: [`Bearer ${GOOD_TOKEN}`, `Bearer ${GOOD_TOKEN}`] })));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Bad request: the Authorization header is sent more than once; send it once.');
    expect(challenge(res.headers['www-authenticate'])).toMatchObject({ error: 'invalid_request', resource_metadata: METADATA_URL });
    expect(mark).toEqual({ rejecter: 'auth-check', reason: 'invalid_request' });
    expect(auth.calls).toBe(0);
  });

  it('hands what the provider returned to the tool through McpContext.auth', async () => {
    const res = await post(t.server, whoami(), bearer(GOOD_TOKEN));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.result.content[0].text)).toEqual({ auth: { subject: 'alice', scopes: ['tools:read'], tenant: 'acme' } });
    expect(auth.calls).toBe(1);
  });

  it("hands the tool a frozen copy of the provider's info: a tool cannot change what later readers see", async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'auth_probe', arguments: {} }), bearer(GOOD_TOKEN));
    expect(JSON.parse(res.body.result.content[0].text)).toEqual({ frozen: true });
  });

  it('names the scope a deny() carries in its challenge', async () => {
    const res = await post(t.server, whoami(), bearer('deny-with-scope'));
    expect(res.status).toBe(401);
    expect(challenge(res.headers['www-authenticate'])).toEqual({ error: 'invalid_token', scope: 'tools:call tools:admin', resource_metadata: METADATA_URL });
  });

  it('sends a description of exactly 200 characters whole, and quotes a long needed scope cut to 200 characters', async () => {
    const whole = await post(t.server, whoami(), bearer('description-200'));
    expect(challenge(whole.headers['www-authenticate']).error_description).toBe('d'.repeat(200));
    const cut = await post(t.server, whoami(), bearer('long-scope'));
    expect(cut.status).toBe(403);
    expect(challenge(cut.headers['www-authenticate']).scope).toBe(`tools:${'s'.repeat(300)}`);
    expect(cut.body.error.message).toMatch(/^Forbidden: this request needs scope "tools:s+[^s"]*"\.$/);
    expect(cut.body.error.message.length).toBeLessThanOrEqual('Forbidden: this request needs scope .'.length + 200);
  });

  it('asks the provider on every request: a good token on one request lets no later request through', async () => {
    expect((await post(t.server, whoami(), bearer(GOOD_TOKEN))).status).toBe(200);
    expect((await post(t.server, whoami())).status).toBe(401);
    expect(auth.calls).toBe(2);
  });

  it.each(['throws', ...Object.keys(GARBAGE)])(
    'contains a provider fault (token %s) as 500 with a JSON-RPC -32603 body and an mcp:auth:error event, never a pass',
    async (token) => {
      let res: any;
      const events = await recordEvents(['mcp:auth:error', 'mcp:wire:reject', 'mcp:tool:start'], async () => (res = await post(t.server, whoami(), bearer(token))));
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error: the auth provider failed.' } });
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(events.map((e) => e.channel)).toEqual(['mcp:auth:error']);
      expect(events[0]!.message).toMatchObject({ exception: token.includes('throws') ? 'Error' : 'TypeError' });
      expect(JSON.stringify(res.body)).not.toContain('key store');
    },
  );

  it('bounds the error text of mcp:auth:error to 200 characters (the fault itself rides beside it)', async () => {
    const events = await recordEvents(['mcp:auth:error'], () => post(t.server, whoami(), bearer('throws-long')));
    const event = events[0]!.message as { error: string; fault: Error };
    expect(event.error.startsWith('Error: the key store is down: xxx')).toBe(true);
    expect(event.error.length).toBeLessThanOrEqual(200);
    expect(event.fault.message.length).toBeGreaterThan(5000);
  });

  it('serves the protected-resource metadata at the well-known URL its challenges name', async () => {
    const res = await request(t.server).get(new URL(METADATA_URL).pathname);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.body).toEqual(METADATA);
  });
});

describe('auth check with a provider that answers through a promise (the rest of the chain runs once it settles)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [WhoAmITool], options: { auth: new AsyncTokenAuth(), protectedResourceMetadata: METADATA } });
  });
  afterAll(() => t.close());

  it('lets an allowed request through to the tool with what the provider returned', async () => {
    const res = await post(t.server, whoami(), bearer(GOOD_TOKEN));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.result.content[0].text)).toEqual({ auth: { subject: 'alice', scopes: ['tools:read'], tenant: 'acme' } });
  });

  it.each([
    [undefined, 401, 'unauthorized'],
    ['reader', 403, 'insufficient_scope'],
    ['malformed', 400, 'invalid_request'],
  ])('refuses token %s with %i (%s)', async (token, status, reason) => {
    let res: any;
    const mark = await rejectionOf(async () => (res = await post(t.server, whoami(), token === undefined ? {} : bearer(token))));
    expect(res.status).toBe(status);
    expect(challenge(res.headers['www-authenticate']).resource_metadata).toBe(METADATA_URL);
    expect(mark).toEqual({ rejecter: 'auth-check', reason });
  });

  it.each(['throws', Object.keys(GARBAGE)[0]!])('contains a rejected or malformed answer (token %s) as 500 + -32603 and an mcp:auth:error event', async (token) => {
    let res: any;
    const events = await recordEvents(['mcp:auth:error', 'mcp:tool:start'], async () => (res = await post(t.server, whoami(), bearer(token))));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error: the auth provider failed.' } });
    expect(events.map((e) => e.channel)).toEqual(['mcp:auth:error']);
  });
});

describe('protected-resource metadata for a resource with a nested path', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      path: 'tools/mcp',
      options: {
        auth: new TokenAuth(),
        protectedResourceMetadata: { resource: 'https://api.example.com/tools/mcp/', authorization_servers: ['https://auth.example.com'] },
      },
    });
  });
  afterAll(() => t.close());

  it('names the RFC 9728 URL (well-known suffix between host and path, trailing slash dropped) and serves the metadata there', async () => {
    const res = await post(t.server, rpc('server/discover'), {}, '/tools/mcp');
    expect(res.status).toBe(401);
    const url = challenge(res.headers['www-authenticate']).resource_metadata!;
    expect(url).toBe('https://api.example.com/.well-known/oauth-protected-resource/tools/mcp');
    const metadata = await request(t.server).get(new URL(url).pathname);
    expect(metadata.status).toBe(200);
    expect(metadata.body.resource).toBe('https://api.example.com/tools/mcp/');
  });
});

describe('protected-resource metadata for a resource with a query', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      options: {
        auth: new TokenAuth(),
        protectedResourceMetadata: { resource: 'https://api.example.com/mcp?tenant=acme', authorization_servers: ['https://auth.example.com'] },
      },
    });
  });
  afterAll(() => t.close());

  it('names the RFC 9728 URL with the query after the path, and serves the metadata at its path', async () => {
    const res = await post(t.server, rpc('server/discover'));
    const url = challenge(res.headers['www-authenticate']).resource_metadata!;
    expect(url).toBe('https://api.example.com/.well-known/oauth-protected-resource/mcp?tenant=acme');
    const metadata = await request(t.server).get(new URL(url).pathname + new URL(url).search);
    expect([metadata.status, metadata.body.resource]).toEqual([200, 'https://api.example.com/mcp?tenant=acme']);
  });
});

describe('protected-resource metadata under a global prefix', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      options: { auth: new TokenAuth(), protectedResourceMetadata: { resource: 'https://mcp.example.com/api/mcp', authorization_servers: ['https://auth.example.com'] } },
      configure: (app) => app.setGlobalPrefix('api'),
    });
  });
  afterAll(() => t.close());

  it('serves the metadata where the challenge points, outside the prefix, and not under the prefix', async () => {
    const res = await post(t.server, rpc('server/discover'), {}, '/api/mcp');
    expect(res.status).toBe(401);
    const url = challenge(res.headers['www-authenticate']).resource_metadata!;
    expect(url).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp');
    const metadata = await request(t.server).get(new URL(url).pathname);
    expect(metadata.status).toBe(200);
    expect(metadata.body.resource).toBe('https://mcp.example.com/api/mcp');
    expect((await request(t.server).get('/api/.well-known/oauth-protected-resource/mcp')).status).toBe(404);
  });
});

describe('auth check without protected-resource metadata, and the default provider', () => {
  let withAuth: TestApp;
  let noAuth: TestApp;
  beforeAll(async () => {
    withAuth = await createTestApp({ options: { auth: TokenAuth } });
    noAuth = await createTestApp({ providers: [WhoAmITool] });
  });
  afterAll(async () => {
    await withAuth.close();
    await noAuth.close();
  });

  it('sends a bare Bearer challenge when no metadata is configured, with a provider given as a class', async () => {
    const res = await post(withAuth.server, rpc('server/discover'));
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it.each([
    ['configured without the option', () => withAuth],
    ['with the default provider', () => noAuth],
  ])('answers 404 at the well-known path when %s', async (_label, app) => {
    const res = await request(app().server).get('/.well-known/oauth-protected-resource/mcp');
    expect(res.status).toBe(404);
  });

  it('refuses metadata given without a provider at module init: nothing to protect, and no 401 to name it', async () => {
    await expect(createTestApp({ providers: [WhoAmITool], options: { protectedResourceMetadata: METADATA } })).rejects.toThrow(
      'option "protectedResourceMetadata": is served only beside an auth provider',
    );
  });

  it('lets every request through with no identity when no provider is configured', async () => {
    const res = await post(noAuth.server, whoami());
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.result.content[0].text)).toEqual({ auth: null });
  });
});

/** A provider written as a Nest developer writes a Passport strategy: it throws Nest's HttpExceptions to refuse. */
class ThrowingAuth implements McpAuth {
  constructor(private readonly async: boolean) {}

  authenticate(req: IncomingMessage): McpAuthDecision | Promise<McpAuthDecision> {
    if (!this.async) return this.decide(bearerToken(req));
    return Promise.resolve().then(() => this.decide(bearerToken(req)));
  }

  private decide(token: string | undefined): McpAuthDecision {
    if (token === GOOD_TOKEN) return McpAuthDecision.allow({ subject: 'alice' });
    if (token === 'banned') throw new ForbiddenException('Account suspended');
    if (token === 'garbled') throw new BadRequestException('Malformed token');
    if (token === 'crlf') throw new UnauthorizedException('bad "token"\r\nX-Injected: 1');
    if (token === 'idp-down') throw new ServiceUnavailableException('The identity provider is down');
    if (token === 'numeric-message') throw Object.assign(new UnauthorizedException(), { message: 42 });
    throw new UnauthorizedException(token === undefined ? undefined : 'Token expired');
  }
}

describe.each([
  ['synchronously', false],
  ['through a rejected promise', true],
])('auth check with a provider that throws Nest HttpExceptions %s', (_how, async) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [WhoAmITool], options: { auth: new ThrowingAuth(async), protectedResourceMetadata: METADATA } });
  });
  afterAll(() => t.close());

  it.each([
    ['no token: UnauthorizedException', {}, 401, 'unauthorized', { resource_metadata: METADATA_URL }],
    ['an empty Authorization (no credentials, RFC 6750 §3.1)', { authorization: '' }, 401, 'unauthorized', { resource_metadata: METADATA_URL }],
    ['another scheme (Basic: no bearer credentials)', { authorization: 'Basic YTpi' }, 401, 'unauthorized', { resource_metadata: METADATA_URL }],
    [
      'a bad token: UnauthorizedException',
      bearer('expired'),
      401,
      'unauthorized',
      { error: 'invalid_token', error_description: 'Token expired', resource_metadata: METADATA_URL },
    ],
    [
      'a message a challenge cannot carry as is',
      bearer('crlf'),
      401,
      'unauthorized',
      { error: 'invalid_token', error_description: 'bad ?token???X-Injected: 1', resource_metadata: METADATA_URL },
    ],
    [
      'ForbiddenException: no error code, so no scope to step up to',
      bearer('banned'),
      403,
      'forbidden',
      { error_description: 'Account suspended', resource_metadata: METADATA_URL },
    ],
    ['an exception whose message is no string: no description', bearer('numeric-message'), 401, 'unauthorized', { error: 'invalid_token', resource_metadata: METADATA_URL }],
    ['BadRequestException', bearer('garbled'), 400, 'invalid_request', { error: 'invalid_request', error_description: 'Malformed token', resource_metadata: METADATA_URL }],
  ])('answers %s as the refusal it names, with its challenge, not a fault', async (_case, headers, status, reason, params) => {
    let res: any;
    const events = await recordEvents(['mcp:auth:error', 'mcp:wire:reject', 'mcp:tool:start'], async () => {
      res = await post(t.server, whoami(), headers);
    });
    expect(res.status).toBe(status);
    expect(challenge(res.headers['www-authenticate'])).toEqual(params);
    expect(res.body.error.code).toBe(-32600);
    expect(events.map((e) => [e.channel, (e.message as { reason?: string }).reason])).toEqual([['mcp:wire:reject', reason]]);
  });

  it('contains an HttpException of another status (503) as a provider fault: 500 + -32603, never a pass', async () => {
    let res: any;
    const events = await recordEvents(['mcp:auth:error', 'mcp:tool:start'], async () => (res = await post(t.server, whoami(), bearer('idp-down'))));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error: the auth provider failed.' } });
    expect(events.map((e) => [e.channel, (e.message as { exception?: string }).exception])).toEqual([['mcp:auth:error', 'ServiceUnavailableException']]);
  });

  it('lets a good token through', async () => {
    const res = await post(t.server, whoami(), bearer(GOOD_TOKEN));
    expect(JSON.parse(res.body.result.content[0].text)).toEqual({ auth: { subject: 'alice' } });
  });
});

/** Allows every request, 300 ms after it is asked. */
class SlowAuth implements McpAuth {
  async authenticate() {
    await sleep(300);
    return McpAuthDecision.allow({ subject: 'slow' });
  }
}

const waitRuns: { abortedWithin2s: boolean }[] = [];

@McpTool({ name: 'waits', description: 'Waits for its signal, 2 s at most.', inputSchema: { type: 'object', properties: {} } })
class WaitsTool {
  async run(_args: unknown, ctx: McpContext) {
    const abortedWithin2s =
      ctx.signal.aborted ||
      (await Promise.race([new Promise<boolean>((resolve) => ctx.signal.addEventListener('abort', () => resolve(true))), sleep(2000).then(() => false)]));
    waitRuns.push({ abortedWithin2s });
    return 'done';
  }
}

describe('a client that leaves while an async auth provider decides', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [WaitsTool, SleeperTool], options: { auth: new SlowAuth(), bodyReadTimeoutMs: 4000 } });
  });
  afterAll(() => t.close());

  /**
   * Sends a tools/call (of `waits`, unless `call` names another tool) on a raw socket, `bodyPart` of its body, and
   * destroys the socket 50 ms later; resolves when it did.
   */
  async function leave(bodyPart: (body: string) => string, call: Record<string, unknown> = { name: 'waits', arguments: {} }): Promise<number> {
    const body = JSON.stringify(rpc('tools/call', call, 1));
    const head =
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n' +
      `Mcp-Name: ${String(call.name)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const socket = connect(portOf(t.server), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(head + bodyPart(body));
    await sleep(50);
    socket.destroy(); // gone before the provider answers (300 ms)
    return Date.now();
  }

  it('cancels a call whose whole body arrived: mcp:request:cancelled, and ctx.signal aborts', async () => {
    waitRuns.length = 0;
    const events = await recordEvents(['mcp:request:cancelled', 'mcp:tool:start'], async () => {
      await leave((body) => body);
      await sleep(2800);
    });
    expect(events.map((e) => e.channel).sort()).toEqual(['mcp:request:cancelled', 'mcp:tool:start']);
    expect(waitRuns).toEqual([{ abortedWithin2s: true }]);
  }, 15_000);

  it('makes no task of a call whose client left before its tool started, and never runs the handler', async () => {
    const tag = 'left-during-auth';
    const call = { name: 'sleeper', arguments: { tag, ms: 3000 }, _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS }) };
    const events = await recordEvents(['mcp:request:cancelled', 'mcp:tool:start', 'mcp:task:status'], async () => {
      await leave((body) => body, call);
      await sleep(1500);
    });
    expect(events.map((e) => e.channel).sort()).toEqual(['mcp:request:cancelled', 'mcp:tool:start']);
    expect(taskRuns.has(tag)).toBe(false);
  }, 15_000);

  it('ends the read of a body cut short once the provider answers, not bodyReadTimeoutMs later', async () => {
    const seen: { at: number; reason: string }[] = [];
    const handler = (message: unknown) => seen.push({ at: Date.now(), reason: (message as { reason: string }).reason });
    diagnosticsChannel.subscribe('mcp:wire:reject', handler);
    try {
      const left = await leave((body) => body.slice(0, 10));
      while (seen.length === 0 && Date.now() - left < 6000) await sleep(25);
      expect(seen.map((e) => e.reason)).toEqual(['stalled_read']);
      expect(seen[0]!.at - left).toBeLessThan(1500);
    } finally {
      diagnosticsChannel.unsubscribe('mcp:wire:reject', handler);
    }
  }, 15_000);
});

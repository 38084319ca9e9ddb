import type { IncomingMessage } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';

import { McpPrompt, McpResource, McpTool, type McpContext, type McpPlainTool } from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** A host's own global API-key guard, as an existing app has one: it puts the caller on the request. */
@Injectable()
class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<IncomingMessage & { user?: unknown }>();
    if (req.headers['x-api-key'] !== 'k') throw new UnauthorizedException('an API key is required');
    req.user = { id: 'u1', name: 'Ada' };
    return true;
  }
}

/** A tool reading what the host's guard put on the request. */
@McpTool({ name: 'whoami', description: 'Says who the host says the caller is.', inputSchema: { type: 'object', properties: {} } })
class WhoAmITool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext<IncomingMessage & { user?: { name: string } }>) {
    return `You are ${ctx.request.user?.name ?? 'nobody'}.`;
  }
}

type GuardedRequest = IncomingMessage & { user?: { name: string } };

/** A resource and a prompt reading the same (resources/read and prompts/get get the host request too). */
@McpResource({ uri: 'app://me', name: 'me' })
class MeResource {
  read(ctx: McpContext<GuardedRequest>) {
    return `resource for ${ctx.request.user?.name ?? 'nobody'}`;
  }
}

@McpPrompt({ name: 'greet_me', description: 'Greets the caller.' })
class GreetMePrompt {
  get(_args: unknown, ctx: McpContext<GuardedRequest>) {
    return `Greet ${ctx.request.user?.name ?? 'nobody'}.`;
  }
}

describe('a host app with its own global guard and its body parser on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool, WhoAmITool, MeResource, GreetMePrompt, { provide: APP_GUARD, useClass: ApiKeyGuard }], appOptions: { bodyParser: true } });
  });
  afterAll(() => t.close());

  it("answers the host guard's refusal in the JSON-RPC dialect, keeping the request id the host's parser read", async () => {
    const res = await post(t.server, rpc('tools/list', {}, 'host-7'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 'host-7', error: { code: -32600, message: 'an API key is required' } });
  });

  it("gives a tool the host's request, with what the host's guard put there (ctx.request)", async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'whoami', arguments: {} }), { 'x-api-key': 'k' });
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'You are Ada.' }]);
  });

  it("gives a resource read and a prompt get the host's request too", async () => {
    const read = await post(t.server, rpc('resources/read', { uri: 'app://me' }), { 'x-api-key': 'k' });
    expect(read.body.result.contents[0].text).toBe('resource for Ada');
    const prompt = await post(t.server, rpc('prompts/get', { name: 'greet_me' }), { 'x-api-key': 'k' });
    expect(prompt.body.result.messages[0].content.text).toBe('Greet Ada.');
  });

  it('serves the request the host guard lets through', async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'through' } }), { 'x-api-key': 'k' });
    expect(res.status).toBe(200);
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'through' }]);
  });
});

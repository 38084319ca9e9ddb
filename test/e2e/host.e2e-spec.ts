import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  Body,
  Catch,
  Controller,
  HttpException,
  Injectable,
  Logger,
  Post,
  Scope,
  UnauthorizedException,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import express, { type Request } from 'express';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timeout, type Observable } from 'rxjs';
import request from 'supertest';

import { McpMethodError, McpPrompt, McpResource, McpTool, type McpContext, type McpPlainTool, type McpPromptHandler, type McpResourceHandler } from '../../lib/index.js';
import { ArrivingBodies } from '../../lib/protocol/arriving-bodies.js';
import { hostParsedWarning } from '../../lib/protocol/parse-step.guard.js';
import { hostRefusalNote } from '../../lib/response/mcp-exception.filter.js';
import { WaitingAnswers } from '../../lib/response/waiting-answers.js';
import { EchoTool } from '../support/fixture-tools.js';
import { legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { listen } from '../support/listen.js';
import { MaintenanceInterceptor } from '../support/maintenance-interceptor.js';
import { echoCallOfSize, mirroredHeaders, post, recordEvents, rpc } from '../support/mcp-client.js';
import { pipelineAndNeverRead, rawRequest, stalledRequest } from '../support/raw-http.js';
import { useTestApp } from '../support/suite-app.js';
import { TEST_ADAPTER, createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

/** A host's own global API-key guard, as an existing app has one: it puts the caller on the request. */
@Injectable()
class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<IncomingMessage & { user?: unknown }>();
    if (req.headers['x-guard-fault'] === '1') throw new Error('the key store is down'); // a fault, not a refusal
    if (req.headers['x-api-key'] !== 'k') throw new UnauthorizedException('an API key is required');
    req.user = { id: 'u1', name: 'Ada' };
    return true;
  }
}

/** A tool reading what the host's guard put on the request. */
@McpTool({ name: 'whoami', description: 'Says who the host says the caller is.', inputSchema: { type: 'object', properties: {} } })
class WhoAmITool implements McpPlainTool {
  // Typed with Express's own Request (an interface, as a Nest app types it): it must still implement McpPlainTool.
  run(_args: unknown, ctx: McpContext<Request & { user?: { name: string } }>) {
    return `You are ${ctx.request.user?.name ?? 'nobody'}.`;
  }
}

/** A host route of its own, reading the body the host's parser gave it. */
@Controller('notes')
class NotesController {
  @Post()
  create(@Body() body: { title?: string }) {
    return { created: body?.title ?? null };
  }
}

/** A host route of its own below the mount's path: the host's parser still reads its body. */
@Controller('mcp/hooks')
class HooksController {
  @Post()
  receive(@Body() body: { event?: string }) {
    return { received: body?.event ?? null };
  }
}

/** The host's own global exception filter, answering in the host's own format. */
@Catch()
class HostFilter implements ExceptionFilter {
  catch(thrown: unknown, host: ArgumentsHost) {
    const status = thrown instanceof HttpException ? thrown.getStatus() : 500;
    const reply = host.switchToHttp().getResponse<{ status?: (n: number) => { send(b: unknown): void }; code?: (n: number) => { send(b: unknown): void } }>();
    (reply.code ?? reply.status)!.call(reply, status).send({ hostFilter: true, status });
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

/** What the host's guard leaves, on a request typed as a Fastify app types it. */
type FastifyGuardedRequest = FastifyRequest & { user?: { name: string } };

/**
 * A tool, a resource and a prompt (with a completer) that type their request as Fastify's: each must still implement
 * its handler interface (the default request type is a Node request, which Fastify's is not). Fastify's and Express's
 * requests both carry `user` here, so they run on either adapter.
 */
@McpTool({ name: 'whoami_fastify', description: 'Says who the host says the caller is.', inputSchema: { type: 'object', properties: {} } })
class FastifyTypedTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext<FastifyGuardedRequest>) {
    return `You are ${ctx.request.user?.name ?? 'nobody'}.`;
  }
}

@McpResource({ uri: 'app://me-fastify', name: 'me_fastify' })
class FastifyTypedResource implements McpResourceHandler {
  read(ctx: McpContext<FastifyGuardedRequest>) {
    return `resource for ${ctx.request.user?.name ?? 'nobody'}`;
  }
}

@McpPrompt({
  name: 'greet_me_fastify',
  description: 'Greets the caller.',
  arguments: [{ name: 'as', complete: (value: string, _context: unknown, ctx: McpContext<FastifyGuardedRequest>) => [`${value}${ctx.request.user?.name ?? ''}`] }],
})
class FastifyTypedPrompt implements McpPromptHandler {
  get(_args: Record<string, string>, ctx: McpContext<FastifyGuardedRequest>) {
    return `Greet ${ctx.request.user?.name ?? 'nobody'}.`;
  }
}

describe('a host with a global prefix, its own global guard and filter, and its body parser on', () => {
  let t: TestApp;
  const MCP = '/api/mcp';
  const key = { 'x-api-key': 'k' };
  beforeAll(async () => {
    t = await createTestApp({
      providers: [
        EchoTool,
        WhoAmITool,
        MeResource,
        GreetMePrompt,
        FastifyTypedTool,
        FastifyTypedResource,
        FastifyTypedPrompt,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_FILTER, useClass: HostFilter },
      ],
      controllers: [NotesController, HooksController],
      options: { maxBodyBytes: 512 * 1024 },
      appOptions: { bodyParser: true },
      configure: (app) => app.setGlobalPrefix('api'),
    });
  });
  afterAll(() => t.close());

  it("still parses the host's own routes, and its filter answers them", async () => {
    const created = await post(t.server, { title: 'groceries' }, key, '/api/notes');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ created: 'groceries' });
    const broken = await post(t.server, '{"title":', { ...key, 'content-type': 'application/json' }, '/api/notes');
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ hostFilter: true, status: 400 });
  });

  it("leaves the host's parser on for the host's own route below the mount's path", async () => {
    const res = await post(t.server, { event: 'push' }, key, `${MCP}/hooks`);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ received: 'push' });
    // A query that does not decode leaves the route the host's: only a path below the mount that does not decode is the mount's 404.
    const queried = await post(t.server, { event: 'tag' }, key, `${MCP}/hooks?ref=%ZZ`);
    expect(queried.status).toBe(201);
    expect(queried.body).toEqual({ received: 'tag' });
  });

  it("serves a 200 kB call, past the host parser's 100 kB limit: the mount reads its own body", async () => {
    const text = 'x'.repeat(200 * 1024);
    const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text } }), key, MCP);
    expect(res.status).toBe(200);
    expect(res.body.result.content[0].text).toHaveLength(text.length);
    // Spelled otherwise than its route was registered (a query string), the mount is still told apart from the host's routes.
    const queried = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text } }), key, `${MCP}?trace=1`);
    expect(queried.status).toBe(200);
    expect(queried.body.result.content[0].text).toHaveLength(text.length);
  });

  it('answers invalid JSON and a body over its own ceiling in its own dialect, never through the host filter', async () => {
    const invalid = await post(t.server, '{"jsonrpc":"2.0",', { ...key, 'content-type': 'application/json' }, MCP);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not valid JSON.' } });
    const huge = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(600 * 1024) } }), key, MCP);
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatchObject({ code: -32600, message: expect.stringMatching(/^Payload too large/) });
  });

  // RFC 9112 §3.2.2: a server accepts the absolute form; a fragment is no part of the path. Express routes both to
  // the mount, so the mount must be told apart from the host's routes the same way.
  it.each([
    ['the absolute form', (port: number) => `http://127.0.0.1:${port}${MCP}`],
    ['a fragment', () => `${MCP}#here`],
  ])("reads its own body for a target in %s: the host parser's limit and dialect never apply", async (_form, target) => {
    const path = target((t.server.address() as AddressInfo).port);
    const body = rpc('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(200 * 1024) } });
    const headers = Object.entries({ ...mirroredHeaders(body), ...key, 'content-type': 'application/json' });
    const served = await rawRequest(t.server, { path, headers, body: JSON.stringify(body) });
    expect(served.status).toBe(200);
    expect((served.body as any).result.content[0].text).toHaveLength(200 * 1024);
    const invalid = await rawRequest(t.server, { path, headers, body: '{"jsonrpc":"2.0",' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not valid JSON.' } });
  });

  it('answers below the mount with its own plain 404, not the host filter', async () => {
    const res = await post(t.server, rpc('tools/list'), key, `${MCP}/tools`);
    expect(res.status).toBe(404);
    expect(res.text).toBe('Not Found\n');
  });

  it("answers the host guard's refusal in the JSON-RPC dialect, with the request's id", async () => {
    const res = await post(t.server, rpc('tools/list', {}, 'host-7'), {}, MCP);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 'host-7', error: { code: -32600, message: 'an API key is required' } });
  });

  it("answers the host guard's refusal of a JSON-RPC response (a legacy client's answer) without its id: the transport spec's error response that has no id", async () => {
    const res = await post(t.server, { jsonrpc: '2.0', id: 'mcp-input-1', result: { action: 'accept' } }, {}, MCP);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'an API key is required' } });
  });

  it("answers a fault of the host guard with 500 + -32603 and the request's id, never the fault's message", async () => {
    const res = await post(t.server, rpc('tools/list', {}, 'host-fault'), { 'x-guard-fault': '1' }, MCP);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 'host-fault', error: { code: -32603 } });
    expect(JSON.stringify(res.body)).not.toContain('key store');
  });

  it("answers the host guard's refusal without an id when the body holds none, or is past the mount's bounds", async () => {
    const garbled = await post(t.server, '{"jsonrpc":', { 'content-type': 'application/json' }, MCP);
    expect(garbled.status).toBe(401);
    expect(garbled.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'an API key is required' } });
    const huge = await post(t.server, { ...rpc('tools/list', {}, 'host-8'), pad: 'x'.repeat(5 * 1024 * 1024) }, {}, MCP);
    expect(huge.status).toBe(401);
    expect(huge.body).not.toHaveProperty('id');
  });

  it("gives a tool the host's request, with what the host's guard put there (ctx.request)", async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'whoami', arguments: {} }), key, MCP);
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'You are Ada.' }]);
  });

  it("gives a resource read and a prompt get the host's request too", async () => {
    const read = await post(t.server, rpc('resources/read', { uri: 'app://me' }), key, MCP);
    expect(read.body.result.contents[0].text).toBe('resource for Ada');
    const prompt = await post(t.server, rpc('prompts/get', { name: 'greet_me' }), key, MCP);
    expect(prompt.body.result.messages[0].content.text).toBe('Greet Ada.');
  });

  it("gives handlers that type their request as Fastify's the host's request", async () => {
    const call = await post(t.server, rpc('tools/call', { name: 'whoami_fastify', arguments: {} }), key, MCP);
    expect(call.body.result.content).toEqual([{ type: 'text', text: 'You are Ada.' }]);
    const read = await post(t.server, rpc('resources/read', { uri: 'app://me-fastify' }), key, MCP);
    expect(read.body.result.contents[0].text).toBe('resource for Ada');
    const prompt = await post(t.server, rpc('prompts/get', { name: 'greet_me_fastify' }), key, MCP);
    expect(prompt.body.result.messages[0].content.text).toBe('Greet Ada.');
    const completed = await post(
      t.server,
      rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'greet_me_fastify' }, argument: { name: 'as', value: 'Dr ' } }),
      key,
      MCP,
    );
    expect(completed.body.result.completion.values).toEqual(['Dr Ada']);
  });

  it('serves the request the host guard lets through', async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'through' } }), key, MCP);
    expect(res.status).toBe(200);
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'through' }]);
  });
});

if (TEST_ADAPTER === 'express')
  describe('a host that registers its own express.json() (Express)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ providers: [EchoTool], configure: (app) => app.use(express.json({ limit: '1kb' })) });
    });
    afterAll(() => t.close());

    it('leaves the mount to read its own body: a 200 kB call is served, invalid JSON is -32700', async () => {
      const text = 'x'.repeat(200 * 1024);
      const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text } }));
      expect(res.status).toBe(200);
      expect(res.body.result.content[0].text).toHaveLength(text.length);
      const invalid = await post(t.server, '{"jsonrpc":"2.0",', { 'content-type': 'application/json' });
      expect(invalid.body).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not valid JSON.' } });
    });
  });

if (TEST_ADAPTER === 'express')
  describe("a host with Express's four body parsers on (json, urlencoded, text, raw; Express)", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        providers: [EchoTool],
        appOptions: { bodyParser: true },
        configure: (app) => {
          const nest = app as NestExpressApplication;
          nest.useBodyParser('text');
          nest.useBodyParser('raw');
        },
      });
    });
    afterAll(() => t.close());

    it.each(['application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream'])(
      "leaves a body sent as %s to the mount, which reads it itself (its own -32700), never the host parser's 413 past its 100 kB limit",
      async (type) => {
        const res = await post(t.server, 'x'.repeat(200 * 1024), { ...mirroredHeaders(rpc('tools/list')), 'content-type': type });
        expect([res.status, res.body]).toEqual([400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not valid JSON.' } }]);
      },
    );

    it.each(['/MCP', '/mcp/', '/Mcp/?trace=1'])('reads its own body at %s, a spelling Express routes to the mount (its case and trailing slash)', async (path) => {
      const text = 'x'.repeat(200 * 1024);
      const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text } }), {}, path);
      expect(res.status).toBe(200);
      expect(res.body.result.content[0].text).toHaveLength(text.length);
    });
  });

if (TEST_ADAPTER === 'express')
  describe('a mount at the root of a host with its body parser on (Express)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ providers: [EchoTool], path: '', appOptions: { bodyParser: true } });
    });
    afterAll(() => t.close());

    it("reads its own body for a target in the absolute form with no path (RFC 9112 §3.2.2: the path is /): the host parser's limit never applies", async () => {
      const body = rpc('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(200 * 1024) } });
      const headers = Object.entries({ ...mirroredHeaders(body), 'content-type': 'application/json' });
      const res = await rawRequest(t.server, { path: `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`, headers, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      expect((res.body as any).result.content[0].text).toHaveLength(200 * 1024);
    });
  });

if (TEST_ADAPTER === 'express')
  describe('a host parser the mount cannot skip (wrapped in a function of its own; Express), and a host guard', () => {
    let t: TestApp;
    let warn: ReturnType<typeof jest.spyOn>;
    beforeAll(async () => {
      warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const parse = express.json({ limit: '10mb' });
      t = await createTestApp({
        providers: [EchoTool, { provide: APP_GUARD, useClass: ApiKeyGuard }],
        options: { maxBodyBytes: 1000 },
        configure: (app) => app.use((req: never, res: never, next: never) => parse(req, res, next)),
      });
    });
    afterAll(async () => {
      await t.close();
      warn.mockRestore();
    });

    it('serves what it parsed, and warns once, naming the mount, that its body bounds do not hold for it', async () => {
      const text = 'x'.repeat(2000); // past maxBodyBytes: only a body the mount reads itself is held to it
      for (let i = 0; i < 2; i++) {
        const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text } }), { 'x-api-key': 'k' });
        expect(res.body.result.content[0].text).toHaveLength(text.length);
      }
      const warned = warn.mock.calls.filter((call: unknown[]) => call[0] === hostParsedWarning('mcp'));
      expect(warned).toHaveLength(1);
      expect(hostParsedWarning('mcp')).toContain('maxBodyBytes, maxBodyValues and the -32700 and 413 answers do not hold');
      expect(hostParsedWarning('mcp')).toContain('to the mount "mcp"');
    });

    it("answers the refusal with the request's id, read from the body the host parsed", async () => {
      const res = await post(t.server, rpc('tools/list', {}, 'parsed-by-host'));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 'parsed-by-host', error: { code: -32600, message: 'an API key is required' } });
    });
  });

if (TEST_ADAPTER === 'express')
  describe('a host that compresses its answers (compression(), the Nest docs recipe; Express)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ providers: [EchoTool], configure: (app) => app.use(compression()) });
    });
    afterAll(() => t.close());

    it('leaves a stream uncompressed (no-transform), so its events arrive as they are sent, not at its end', async () => {
      const l = await listen(t.server, { toolsListChanged: true }, 'compressed', { 'accept-encoding': 'gzip, deflate, br' });
      try {
        expect(l.headers['content-encoding']).toBeUndefined();
        expect(l.headers['cache-control']).toBe('no-cache, no-transform');
        expect(await l.nth(1)).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
      } finally {
        l.close();
      }
    });
  });

describe('a host middleware that sets headers and wraps writeHead (as on-headers does, under compression or morgan)', () => {
  const seen: unknown[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool],
      configure: (app) =>
        app.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
          res.setHeader('x-request-id', 'r-1');
          const writeHead = res.writeHead;
          res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
            const [status, headers] = args as [number, unknown];
            seen.push({ status, headers, requestId: this.getHeader('x-request-id') });
            return writeHead.apply(this, args);
          } as typeof writeHead;
          next();
        }),
    });
  });
  afterAll(() => t.close());

  it("keeps the host's header beside the answer's own, and shows a writeHead wrapper the answer's headers as an object", async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'héllo' } }));
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('r-1');
    expect(res.headers['content-type']).toBe('application/json');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'héllo' }]);
    expect(seen).toContainEqual({ status: 200, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(res.text) }, requestId: 'r-1' });
  });
});

if (TEST_ADAPTER === 'fastify')
  describe('a Fastify host hook that sets headers on the reply (a rate limiter, @fastify/cors)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        providers: [EchoTool],
        configure: (app) =>
          (app.getHttpAdapter().getInstance() as FastifyInstance).addHook('onRequest', async (_req, reply) => {
            reply.header('x-ratelimit-remaining', '4');
            reply.header('access-control-allow-origin', 'https://app.example');
          }),
      });
    });
    afterAll(() => t.close());

    it.each([
      ['an answer', () => post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } })), 200],
      ['a rejection (invalid JSON)', () => post(t.server, '{"jsonrpc":', { 'mcp-method': 'tools/call' }), 400],
      ['the fallthrough (GET)', () => request(t.server).get('/mcp'), 405],
    ])("carries the reply's headers on %s, which the mount writes itself", async (_what, send, status) => {
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.headers['x-ratelimit-remaining']).toBe('4');
      expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
    });
  });

/** A host interceptor that throws before the handler while `x-throw` is sent (a broken one): `fault` or a method error. */
@Injectable()
class ThrowingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const asked = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers['x-throw'];
    if (asked === 'fault') throw new Error('the interceptor broke');
    if (asked === 'method') throw new McpMethodError(-32602, 'refused by the interceptor');
    return next.handle();
  }
}

/** A host guard that refuses a request sending `x-refuse` (with a 500 when it says `500`). */
@Injectable()
class RefuseOnAskGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const refuse = context.switchToHttp().getRequest<IncomingMessage>().headers['x-refuse'];
    if (refuse === '500') throw new HttpException('the host failed', 500);
    if (refuse === 'long') throw new UnauthorizedException(`refused: ${'x'.repeat(500)}`);
    if (refuse) throw new UnauthorizedException('refused by the host');
    return true;
  }
}

describe("the answer to a request a host interceptor answered in the mount's stead, to a client that does not read it (a 24 MB id echoed)", () => {
  it("counts among the mount's waiting answers until it is cut off after writeStallTimeoutMs", async () => {
    const t = await createTestApp({
      providers: [EchoTool],
      configure: (app) => app.useGlobalInterceptors(new MaintenanceInterceptor()),
      options: { writeStallTimeoutMs: 1_000, maxBodyBytes: 32 * 1024 * 1024 },
    });
    const socket = await pipelineAndNeverRead(t.server, [{ body: rpc('tools/list', {}, 'x'.repeat(24 * 1024 * 1024)), headers: { 'x-maintenance': '1' } }]);
    try {
      const waiting = t.app.get(WaitingAnswers);
      await until(() => waiting.held > 0, 'the answer to wait for its client', 10_000);
      expect(waiting.held).toBeGreaterThan(1024 * 1024); // most of it: the socket's buffers take a few MB at most
      await until(() => waiting.held === 0, 'the answer to be cut off and let go', 10_000);
      expect(waiting.held).toBe(0);
    } finally {
      socket.destroy();
      await t.close();
    }
  }, 30_000);
});

describe('a host interceptor that answers without calling the handler (a maintenance switch)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool, { provide: APP_GUARD, useClass: RefuseOnAskGuard }],
      configure: (app) => app.useGlobalInterceptors(new MaintenanceInterceptor()),
    });
  });
  afterAll(() => t.close());

  it("answers a host guard's refusal, whose id the mount reads from the body after the host's handler settled, as the refusal, not as unanswered", async () => {
    const res = await post(t.server, rpc('tools/list', {}, 'refused-late'), { 'x-refuse': '1' });
    expect([res.status, res.body]).toEqual([401, { jsonrpc: '2.0', id: 'refused-late', error: { code: -32600, message: 'refused by the host' } }]);
  });

  it("bounds the message of a host guard's refusal to 200 characters", async () => {
    const res = await post(t.server, rpc('tools/list', {}, 'long'), { 'x-refuse': 'long' });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(`refused: ${'x'.repeat(190)}…`);
  });

  it("answers a host guard's HttpException of status 500 as an internal error (-32603), in the JSON-RPC dialect", async () => {
    const res = await post(t.server, rpc('tools/list', {}, 'host-500'), { 'x-refuse': '500' });
    expect([res.status, res.body]).toEqual([500, { jsonrpc: '2.0', id: 'host-500', error: { code: -32603, message: 'the host failed' } }]);
  });

  it('answers the request the mount never ran 500 + -32603 with its id (200 on the legacy era) and one mcp:method:error, never leaving it unanswered', async () => {
    let modern: Awaited<ReturnType<typeof post>> | undefined;
    let legacy: Awaited<ReturnType<typeof legacyPost>> | undefined;
    const events = await recordEvents(['mcp:method:error'], async () => {
      modern = await post(t.server, { ...rpc('tools/list'), id: 'modern' }, { 'x-maintenance': '1' });
      legacy = await legacyPost(t.server, { jsonrpc: '2.0', id: 'm', method: 'tools/list' }, { ...legacyHeaders(), 'x-maintenance': '1' });
    });
    const error = { code: -32603, message: "Internal error: the server's own code answered this request without running the MCP mount." };
    expect([modern!.status, modern!.body]).toEqual([500, { jsonrpc: '2.0', id: 'modern', error }]);
    expect([legacy!.status, legacy!.messages]).toEqual([200, [{ jsonrpc: '2.0', id: 'm', error }]]);
    expect(events.map((e) => [e.message.method, e.message.exception, e.message.era])).toEqual([
      ['tools/list', 'UnansweredRequest', 'modern'],
      ['tools/list', 'UnansweredRequest', 'legacy'],
    ]);
  });

  it.each([
    ["a legacy client's answer to an input request (a JSON-RPC response)", { jsonrpc: '2.0', id: 'mcp-input-7', result: { action: 'accept' } }],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ])('answers %s it never ran with an error status and no id, on the legacy era too (it answered no request)', async (_what, body) => {
    const res = await legacyPost(t.server, body, { ...legacyHeaders(), 'x-maintenance': '1' });
    expect([res.status, res.messages]).toEqual([
      500,
      [{ jsonrpc: '2.0', error: { code: -32603, message: "Internal error: the server's own code answered this request without running the MCP mount." } }],
    ]);
  });

  it('answers a GET it never ran too, and leaves the requests it lets through alone', async () => {
    const get = await request(t.server).get('/mcp').set('x-maintenance', '1');
    expect(get.status).toBe(500);
    expect(get.body.error.code).toBe(-32603);
    const call = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }));
    expect(call.body.result.content).toEqual([{ type: 'text', text: 'hi' }]);
  });
});

describe('a host interceptor that throws for a POST carrying no request (a legacy client answer, a notification)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], configure: (app) => app.useGlobalInterceptors(new ThrowingInterceptor()) });
  });
  afterAll(() => t.close());

  it.each([
    ['a fault', 'fault', 500, { code: -32603, message: 'Internal error.' }],
    ['a method error of the default status 200', 'method', 400, { code: -32602, message: 'refused by the interceptor' }],
  ])('answers %s with an error status and no id on the legacy era (never the 200 a legacy request gets)', async (_what, how, status, error) => {
    const answer = await legacyPost(t.server, { jsonrpc: '2.0', id: 'mcp-input-9', result: { action: 'accept' } }, { ...legacyHeaders(), 'x-throw': how });
    expect([answer.status, answer.messages]).toEqual([status, [{ jsonrpc: '2.0', error }]]);
    const request = await legacyPost(t.server, { jsonrpc: '2.0', id: 'r', method: 'tools/list' }, { ...legacyHeaders(), 'x-throw': how });
    expect([request.status, request.messages[0]!.id]).toEqual([200, 'r']);
  });
});

describe('a request-scoped global interceptor (APP_INTERCEPTOR, Scope.REQUEST) that answers without calling the handler', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool, { provide: APP_INTERCEPTOR, scope: Scope.REQUEST, useClass: MaintenanceInterceptor }] });
  });
  afterAll(() => t.close());

  it('answers the request the mount never ran 500 + -32603 with its id, never leaving it unanswered', async () => {
    const res = await post(t.server, { ...rpc('tools/list'), id: 'scoped' }, { 'x-maintenance': '1' });
    expect([res.status, res.body]).toEqual([
      500,
      { jsonrpc: '2.0', id: 'scoped', error: { code: -32603, message: "Internal error: the server's own code answered this request without running the MCP mount." } },
    ]);
    const call = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }));
    expect(call.body.result.content).toEqual([{ type: 'text', text: 'hi' }]);
  });
});

/** What the slow tool saw of its signal: aborted, or ran to its end. */
const slowRuns: string[] = [];

@McpTool({ name: 'slow', description: 'Waits for its signal, up to 3 s.', inputSchema: { type: 'object', properties: {} } })
class SlowTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const aborted = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 3000);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve(true)), { once: true });
    });
    slowRuns.push(aborted ? 'aborted' : 'ran to its end');
    return 'done';
  }
}

/** A host interceptor that times every request out (rxjs `timeout`, a common Nest recipe). */
@Injectable()
class TimeoutInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(timeout(200));
  }
}

describe('a host interceptor that answers before the tool ends (a timeout)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [SlowTool], configure: (app) => app.useGlobalInterceptors(new TimeoutInterceptor()) });
  });
  afterAll(() => t.close());

  it("answers 500 + -32603, and aborts the tool's signal, so the tool stops rather than running on unanswered", async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'slow', arguments: {} }));
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ code: -32603, message: 'Internal error while handling tools/call.' });
    for (let i = 0; i < 100 && slowRuns.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(slowRuns).toEqual(['aborted']);
  });
});

/** A tool answering with the body of the host's request, as the host's own code would read it. */
@McpTool({ name: 'body', description: "Returns the host request's body.", inputSchema: { type: 'object', properties: {} } })
class BodyTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext<{ body?: unknown }>) {
    return JSON.stringify(ctx.request.body);
  }
}

describe("the host request's body", () => {
  const app = useTestApp({ providers: [BodyTool] });

  it('is the message as the client sent it, on either era: what the mount fills in for a legacy request goes on its own copy', async () => {
    const modern = rpc('tools/call', { name: 'body', arguments: {} });
    const answered = await post(app().server, modern);
    expect(JSON.parse(answered.body.result.content[0].text)).toEqual(modern);
    const legacy = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'body', arguments: {}, _meta: { progressToken: 'p' } } };
    const legacyAnswer = await legacyPost(app().server, legacy, legacyHeaders('2025-11-25'));
    expect(JSON.parse(legacyAnswer.messages[0]!.result.content[0].text)).toEqual(legacy);
  });
});

describe("a host guard's refusal, noted in the log once per mount", () => {
  let t: TestApp;
  let log: ReturnType<typeof jest.spyOn>;
  beforeAll(async () => {
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    t = await createTestApp({ providers: [EchoTool, { provide: APP_GUARD, useClass: RefuseOnAskGuard }] });
  });
  afterAll(async () => {
    log.mockRestore();
    await t.close();
  });
  const notes = () => log.mock.calls.filter((call: unknown[]) => String(call[0]).includes("before the mount's checks"));

  it('names the status, the message and isMountRoute the first time, and stays quiet after', async () => {
    expect(notes()).toEqual([]);
    const first = await post(t.server, rpc('tools/list', {}, 'refused-1'), { 'x-refuse': '1' });
    expect(first.status).toBe(401);
    expect(notes()).toEqual([[hostRefusalNote('/mcp', 401, 'refused by the host')]]);
    expect(notes()[0]![0]).toContain('isMountRoute(context)');
    const second = await post(t.server, rpc('tools/list', {}, 'refused-2'), { 'x-refuse': '500' });
    expect(second.status).toBe(500);
    const served = await post(t.server, rpc('tools/list'));
    expect(served.status).toBe(200);
    expect(notes()).toHaveLength(1);
  });
});

describe("a host guard's refusal whose body the mount reads for its id", () => {
  const BOUND = 64 * 1024;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool, { provide: APP_GUARD, useClass: RefuseOnAskGuard }], options: { maxArrivingBytes: BOUND } });
  });
  afterAll(() => t.close());

  it('counts that read among the arriving bodies, so another body past maxArrivingBytes crowds it out: the refusal then goes without an id', async () => {
    const arriving = t.app.get(ArrivingBodies, { strict: false });
    const sent = 40 * 1024;
    const call = { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
    const fields = { ...call, 'x-refuse': '1' };
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(fields)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}Content-Length: 300000\r\n\r\n`;
    const stalled = stalledRequest(t.server, head, `{"jsonrpc":"2.0","id":"host-read","method":"tools/call","params":{"pad":"${'x'.repeat(sent - 80)}`, 8_000);
    await until(() => arriving.held >= sent - 80, "the refused request's body read for its id", 5_000);
    const served = await post(t.server, echoCallOfSize(200_000), call);
    expect(served.status).toBe(200);
    const raw = await stalled;
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect([raw.split('\r\n')[0], body]).toEqual(['HTTP/1.1 401 Unauthorized', { jsonrpc: '2.0', error: { code: -32600, message: 'refused by the host' } }]);
    expect(arriving.held).toBe(0);
  }, 15_000);
});

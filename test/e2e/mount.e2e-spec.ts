import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import request from 'supertest';

import { McpModule, type McpModuleOptions, type McpOptionsFactory } from '../../lib/index.js';
import { EXTRAS_BESIDE } from '../../lib/options/resolve-options.js';
import { EchoTool } from '../support/fixture-tools.js';
import { post, recordEvents, rpc } from '../support/mcp-client.js';
import { rawRequest } from '../support/raw-http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The verbs these tests send; the mount serves POST only. */
const OTHER_VERBS = ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'] as const;

describe('the mount', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool],
      imports: [McpModule.forRoot({ path: '/admin/mcp/', serverInfo: { name: 'admin', version: '2.0.0' }, telemetryLogger: false })],
    });
  });
  afterAll(() => t.close());

  it.each(OTHER_VERBS)('answers %s at the mount with 405, Allow: POST, a JSON-RPC error envelope, and the fallthrough mark', async (verb) => {
    const events = await recordEvents(['mcp:wire:fallthrough', 'mcp:wire:reject'], async () => {
      const res = await rawRequest(t.server, { method: verb, path: '/mcp', headers: [['origin', 'http://evil.example.com']] });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      if (verb !== 'HEAD')
        expect(JSON.parse(res.text)).toEqual({
          jsonrpc: '2.0',
          error: { code: -32600, message: expect.stringMatching(/^Method not allowed: this MCP endpoint serves POST only/) },
        });
    });
    expect(events).toEqual([{ channel: 'mcp:wire:fallthrough', message: { mount: '/mcp', verb, path: '/mcp', status: 405 } }]);
  });

  it.each(['POST', 'GET'])('answers %s below the mount with 404 in plain text, no JSON-RPC dialect', async (verb) => {
    const res = await rawRequest(t.server, { method: verb, path: '/mcp/tools', body: verb === 'POST' ? JSON.stringify(rpc('tools/list')) : undefined });
    expect(res.status).toBe(404);
    expect(res.text).toBe('Not Found\n');
  });

  it('names the path of a request below the mount in its fallthrough event without its query, which may carry a secret', async () => {
    const events = await recordEvents(['mcp:wire:fallthrough'], async () => {
      expect((await rawRequest(t.server, { method: 'GET', path: '/mcp/tools?token=s3cret' })).status).toBe(404);
    });
    expect(events).toEqual([{ channel: 'mcp:wire:fallthrough', message: { mount: '/mcp', verb: 'GET', path: '/mcp/tools', status: 404 } }]);
  });

  it.each(['/mcp/%ZZ', `/mcp/${'%ZZ'.repeat(4000)}`, '/mcp/a%E0%A4%A', '/mcp/%ZZ?q=%ZZ'])(
    'answers POST %s (a path that does not decode) with the plain 404, echoing nothing',
    async (path) => {
      const res = await rawRequest(t.server, { method: 'POST', path, body: JSON.stringify(rpc('tools/list')) });
      expect(res.status).toBe(404);
      expect(res.text).toBe('Not Found\n');
    },
  );

  it('leaves a path beside the mount that does not decode (/mcpx/%ZZ) to the host: only paths below it are its own', async () => {
    const events = await recordEvents(['mcp:wire:fallthrough'], async () => {
      const res = await rawRequest(t.server, { method: 'POST', path: '/mcpx/%ZZ', body: JSON.stringify(rpc('tools/list')) });
      expect(res.text).not.toBe('Not Found\n');
    });
    expect(events).toEqual([]);
  });

  it('serves two mounts at two paths in one app, each with its own options', async () => {
    const main = await post(t.server, rpc('server/discover'));
    const admin = await post(t.server, rpc('server/discover'), {}, '/admin/mcp');
    expect(main.status).toBe(200);
    expect(admin.status).toBe(200);
    expect(main.body.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('test-server');
    expect(admin.body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'admin', version: '2.0.0' });
    const tools = await post(t.server, rpc('tools/list'), {}, '/admin/mcp');
    expect(tools.body.result.tools.map((tool: { name: string }) => tool.name)).toContain('echo');
  });

  it('answers the fallthrough on the second mount too', async () => {
    const res = await request(t.server).get('/admin/mcp');
    expect(res.status).toBe(405);
  });

  it('serves concurrent POSTs, each with its own answer', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: `n${i}` } }, i))));
    answers.forEach((res, i) => {
      expect(res.body.id).toBe(i);
      expect(res.body.result.content[0].text).toBe(`n${i}`);
    });
  });

  it('ignores Mcp-Session-Id and never mints one', async () => {
    const res = await post(t.server, rpc('server/discover'), { 'mcp-session-id': 'abc' });
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
  });
});

describe('forRootAsync the Nest way', () => {
  @Injectable()
  class Versions {
    readonly current = '4.2.0';
  }

  @Injectable()
  class McpConfig implements McpOptionsFactory {
    constructor(private readonly versions: Versions) {}
    createMcpOptions(): McpModuleOptions {
      return { serverInfo: { name: 'factory', version: this.versions.current }, telemetryLogger: false };
    }
  }

  @Module({ providers: [Versions], exports: [Versions] })
  class VersionsModule {}

  @Module({ imports: [VersionsModule], providers: [McpConfig], exports: [McpConfig] })
  class McpConfigModule {}

  it.each([
    ['useClass', { useClass: McpConfig, imports: [VersionsModule] }],
    ['useExisting', { useExisting: McpConfig, imports: [McpConfigModule] }],
  ])('builds the options with an McpOptionsFactory (%s)', async (_how, async) => {
    const t = await createTestApp({ imports: [McpModule.forRootAsync({ path: 'factory', ...(async as object) })] });
    try {
      const res = await post(t.server, rpc('server/discover'), {}, '/factory');
      expect(res.body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'factory', version: '4.2.0' });
    } finally {
      await t.close();
    }
  });

  /** A value of each extra, for the sweep below: a new extra must be added here to compile. */
  const EXTRA_VALUES: Record<keyof typeof EXTRAS_BESIDE, unknown> = { path: 'inside', version: '1', isGlobal: true };

  it.each(Object.keys(EXTRAS_BESIDE).map((extra): [string, unknown] => [extra, EXTRA_VALUES[extra as keyof typeof EXTRAS_BESIDE]]))(
    'refuses %s inside the options, saying where it goes',
    async (extra, value) => {
      await expect(
        createTestApp({
          imports: [McpModule.forRootAsync({ path: 'async', useFactory: () => ({ serverInfo: { name: 's', version: '1' }, [extra]: value }) as McpModuleOptions })],
        }),
      ).rejects.toThrow(`option "${extra}": is given beside the options, not inside them: McpModule.forRootAsync({ ${extra}, useFactory })`);
    },
  );
});

describe('the mount under a global prefix and with forRootAsync', () => {
  it('serves at the prefixed path with options from a factory', async () => {
    const { Test } = await import('@nestjs/testing');
    @Module({
      imports: [
        McpModule.forRootAsync({
          path: 'rpc',
          useFactory: async () => ({ serverInfo: { name: 'async', version: '3.0.0' }, telemetryLogger: false }),
        }),
      ],
      providers: [EchoTool],
    })
    class AsyncHost {}
    const moduleRef = await Test.createTestingModule({ imports: [AsyncHost] }).compile();
    const app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
    app.setGlobalPrefix('api');
    await app.listen(0, '127.0.0.1');
    try {
      const res = await post(app.getHttpServer(), rpc('server/discover'), {}, '/api/rpc');
      expect(res.status).toBe(200);
      expect(res.body.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('async');
    } finally {
      await app.close();
    }
  });
});

describe('a mount at the root of the host', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], path: '' });
  });
  afterAll(() => t.close());

  it('serves at / and leaves every other path to the host: an unknown one gets the host 404, not the mount 404', async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'root' } }), {}, '/');
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'root' }]);
    const unknown = await request(t.server).get('/no/such/page');
    expect(unknown.status).toBe(404);
    expect(unknown.text).not.toBe('Not Found\n');
    expect(unknown.body).toMatchObject({ statusCode: 404 });
  });
});

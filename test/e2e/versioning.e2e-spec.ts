import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from '@jest/globals';
import {
  Controller,
  Get,
  Module,
  Post,
  VERSION_NEUTRAL,
  VersioningType,
  type CallHandler,
  type ControllerOptions,
  type NestInterceptor,
  type VersioningOptions,
} from '@nestjs/common';
import { from, switchMap } from 'rxjs';

import { McpModule } from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { post, recordEvents, rpc } from '../support/mcp-client.js';
import { rawRequest } from '../support/raw-http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** A host controller, versioned by the host's `defaultVersion` like any other. */
@Controller('items')
class ItemsController {
  @Get()
  list(): string[] {
    return ['item'];
  }
}

/** A host with versioning enabled and one mount at `mcp`, its `version` extra given when set. */
const versionedHost = (versioning: VersioningOptions, version?: ControllerOptions['version']): Promise<TestApp> =>
  createTestApp({ providers: [EchoTool], controllers: [ItemsController], version, configure: (app) => app.enableVersioning(versioning) });

/** Calls the echo tool at `path`; the status and, on 200, the echoed text. */
async function echoAt(t: TestApp, path: string, headers: Record<string, string> = {}): Promise<{ status: number; text?: unknown }> {
  const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }), headers, path);
  return { status: res.status, text: res.status === 200 ? res.body.result?.content?.[0]?.text : undefined };
}

const withHost = async (versioning: VersioningOptions, version: ControllerOptions['version'], fn: (t: TestApp) => Promise<void>) => {
  const t = await versionedHost(versioning, version);
  try {
    await fn(t);
  } finally {
    await t.close();
  }
};

describe("the mount under the host's API versioning", () => {
  it('stays at its path under URI versioning with a defaultVersion, while the host moves to /v1', async () => {
    await withHost({ type: VersioningType.URI, defaultVersion: '1' }, undefined, async (t) => {
      expect((await rawRequest(t.server, { method: 'GET', path: '/v1/items' })).status).toBe(200);
      expect(await echoAt(t, '/mcp')).toEqual({ status: 200, text: 'hi' });
      expect((await echoAt(t, '/v1/mcp')).status).toBe(404);
    });
  });

  it.each([
    ['header', { type: VersioningType.HEADER, header: 'X-API-Version', defaultVersion: '1' }, (v: string) => ({ 'x-api-version': v })],
    // The version in the last media range: Nest 11 reads everything after the header's first `;` as the version
    // (`1, text/event-stream` from `application/json;v=1, text/event-stream`); Nest 12 reads each range's parameters.
    ['media-type', { type: VersioningType.MEDIA_TYPE, key: 'v=', defaultVersion: '1' }, (v: string) => ({ accept: `text/event-stream, application/json;v=${v}` })],
  ] as const)('answers under %s versioning with a defaultVersion, whatever version a request names or none', async (_kind, versioning, naming) => {
    await withHost(versioning, undefined, async (t) => {
      // The host's own routes need the version named; MCP clients name none.
      expect((await rawRequest(t.server, { method: 'GET', path: '/items', headers: Object.entries(naming('1')) })).status).toBe(200);
      expect((await rawRequest(t.server, { method: 'GET', path: '/items' })).status).toBe(404);
      expect(await echoAt(t, '/mcp')).toEqual({ status: 200, text: 'hi' });
      expect(await echoAt(t, '/mcp', naming('7'))).toEqual({ status: 200, text: 'hi' });
    });
  });

  it('moves under URI versioning when given a version, with its fallthrough at the versioned path', async () => {
    await withHost({ type: VersioningType.URI, defaultVersion: '1' }, '2', async (t) => {
      expect(await echoAt(t, '/v2/mcp')).toEqual({ status: 200, text: 'hi' });
      expect((await echoAt(t, '/mcp')).status).toBe(404);
      const events = await recordEvents(['mcp:wire:fallthrough'], async () => {
        expect((await rawRequest(t.server, { method: 'GET', path: '/v2/mcp' })).status).toBe(405);
        const below = await rawRequest(t.server, { method: 'POST', path: '/v2/mcp/tools', body: '{}' });
        expect(below.status).toBe(404);
      });
      expect(events.map((e) => [e.message.path, e.message.status])).toEqual([
        ['/v2/mcp', 405],
        ['/v2/mcp/tools', 404],
      ]);
    });
  });

  it('answers at each path of a version list (URI versioning)', async () => {
    await withHost({ type: VersioningType.URI }, ['1', VERSION_NEUTRAL], async (t) => {
      expect(await echoAt(t, '/v1/mcp')).toEqual({ status: 200, text: 'hi' });
      expect(await echoAt(t, '/mcp')).toEqual({ status: 200, text: 'hi' });
      expect((await echoAt(t, '/v2/mcp')).status).toBe(404);
    });
  });

  it('takes the version beside forRootAsync options', async () => {
    const t = await createTestApp({
      providers: [EchoTool],
      imports: [McpModule.forRootAsync({ path: 'async', version: '3', useFactory: () => ({ serverInfo: { name: 'async', version: '1.0.0' }, telemetryLogger: false }) })],
      configure: (app) => app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' }),
    });
    try {
      expect(await echoAt(t, '/v3/async')).toEqual({ status: 200, text: 'hi' });
      expect(await echoAt(t, '/mcp')).toEqual({ status: 200, text: 'hi' });
    } finally {
      await t.close();
    }
  });

  it('given a version under header versioning, answers only requests naming it', async () => {
    await withHost({ type: VersioningType.HEADER, header: 'X-API-Version' }, '2', async (t) => {
      expect(await echoAt(t, '/mcp', { 'x-api-version': '2' })).toEqual({ status: 200, text: 'hi' });
      // Another version's request is the host's to answer (its 404), not the mount's fallthrough, with a query or without.
      const events = await recordEvents(['mcp:wire:fallthrough'], async () => {
        expect((await echoAt(t, '/mcp')).status).toBe(404);
        expect((await echoAt(t, '/mcp', { 'x-api-version': '1' })).status).toBe(404);
        expect((await echoAt(t, '/mcp?trace=1', { 'x-api-version': '1' })).status).toBe(404);
      });
      expect(events).toEqual([]);
    });
  });
});

/** A host route at the mount's path under version 1, in a module imported after the mount (so routed after it). */
@Controller({ path: 'mcp', version: '1' })
class HostAtMountPathController {
  @Post()
  async create(): Promise<{ host: string }> {
    await sleep(10);
    return { host: 'v1' };
  }
}

@Module({ controllers: [HostAtMountPathController] })
class HostAtMountPathModule {}

/** A global interceptor that lets everything through, a turn later (a logging or timing interceptor). */
class PassingInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler) {
    return from(sleep(10)).pipe(switchMap(() => next.handle()));
  }
}

describe("a versioned mount beside a host route at its path, under a host's global interceptor", () => {
  it('leaves a request naming the host route’s version to it: no 500 from the mount, no mcp:method:error', async () => {
    const t = await createTestApp({
      providers: [EchoTool],
      imports: [HostAtMountPathModule],
      version: '2',
      configure: (app) => {
        app.enableVersioning({ type: VersioningType.HEADER, header: 'X-API-Version' });
        app.useGlobalInterceptors(new PassingInterceptor());
      },
    });
    try {
      expect(await echoAt(t, '/mcp', { 'x-api-version': '2' })).toEqual({ status: 200, text: 'hi' });
      const events = await recordEvents(['mcp:method:error'], async () => {
        const res = await rawRequest(t.server, {
          method: 'POST',
          path: '/mcp',
          headers: [
            ['x-api-version', '1'],
            ['content-type', 'application/json'],
          ],
          body: '{}',
        });
        expect([res.status, res.body]).toEqual([201, { host: 'v1' }]);
      });
      expect(events).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('two mounts at one path under different versions', () => {
  it('stops the application: a mount is known by its path', async () => {
    const twin = McpModule.forRoot({ path: 'mcp', version: '2', serverInfo: { name: 'twin', version: '1.0.0' }, telemetryLogger: false });
    await expect(
      createTestApp({ providers: [EchoTool], version: '1', imports: [twin], configure: (app) => app.enableVersioning({ type: VersioningType.URI }) }),
    ).rejects.toThrow('path "/mcp": is mounted twice: give each McpModule.forRoot its own path (a mount is known by its path, whatever its version');
  });
});

describe('two mounts at different paths whose versioned routes are one', () => {
  it('stops the application rather than let the first shadow the second', async () => {
    // The neutral mount at "v1/mcp" and the version-1 mount at "mcp" are both POST /v1/mcp.
    const neutral = McpModule.forRoot({ path: 'v1/mcp', serverInfo: { name: 'neutral', version: '1.0.0' }, telemetryLogger: false });
    await expect(
      createTestApp({ providers: [EchoTool], version: '1', imports: [neutral], configure: (app) => app.enableVersioning({ type: VersioningType.URI }) }),
    ).rejects.toThrow(/path "\/v1\/mcp": is mounted twice: give each McpModule.forRoot its own path$|already declared for route '\/v1\/mcp'/); // Express: ours; Fastify refuses the duplicate route itself
  });
});

describe('the version extra, refused when malformed', () => {
  it.each([
    ['an empty string', ''],
    ['a path', 'v1/x'],
    ['a number', 1],
    ['null', null],
    ['an object', {}],
    ['an empty list', []],
    ['a list repeating a version', ['1', '1']],
    ['a list holding a number', ['1', 2]],
  ])('refuses %s, naming the option', (_what, version) => {
    expect(() => McpModule.forRoot({ path: 'mcp', version: version as never, serverInfo: { name: 's', version: '1' } })).toThrow(
      /^option "version": must be VERSION_NEUTRAL, a version/,
    );
  });

  it.each(['2024-06', 'v1.2', 'beta_1', ['1', '2.0-rc']])('takes %p: letters, digits, ".", "_" and "-"', (version) => {
    expect(McpModule.forRoot({ path: 'mcp', version, serverInfo: { name: 's', version: '1' } }).controllers).toHaveLength(1);
  });
});

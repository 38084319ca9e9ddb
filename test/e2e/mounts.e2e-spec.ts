import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Controller, HttpCode, Inject, Injectable, Logger, Module, Post, UseFilters, UseGuards } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import express from 'express';
import request from 'supertest';

import {
  CHAIN_GUARDS,
  InProcessEventBus,
  InProcessTaskStore,
  McpConfigurationError,
  McpEventBus,
  McpExceptionFilter,
  McpModule,
  McpResource,
  McpTool,
  OriginGuard,
  type McpChannel,
  type McpPlainTool,
} from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { initialize, legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { listen, type Listener } from '../support/listen.js';
import { echoCallOfSize, meta, post, recordEvents, rpc } from '../support/mcp-client.js';
import { MustTaskTool, TASK_CAPS } from '../support/task-tools.js';
import { TEST_ADAPTER, createTestApp, type TestApp } from '../support/test-app.js';

const EMPTY = { type: 'object', properties: {}, additionalProperties: false } as const;

@McpTool({ name: 'users', description: 'Administers users.', inputSchema: EMPTY })
class UsersTool implements McpPlainTool {
  run() {
    return 'users';
  }
}

@McpResource({ uri: 'admin://audit', name: 'audit' })
class AuditResource {
  read() {
    return 'audit log';
  }
}

@McpTool({ name: 'shared', description: 'Listed by both mounts.', inputSchema: EMPTY })
class SharedTool implements McpPlainTool {
  run() {
    return 'shared';
  }
}

@McpTool({ name: 'orphan', description: 'Provided where no mount reaches.', inputSchema: EMPTY })
class OrphanTool implements McpPlainTool {
  run() {
    return 'orphan';
  }
}

const adminMount = (extra: Record<string, unknown> = {}) =>
  McpModule.forRoot({ path: 'admin/mcp', serverInfo: { name: 'admin', version: '1.0.0' }, telemetryLogger: false, ...extra });

/** The admin feature: its own mount, and the tool and resource it serves. */
@Module({ imports: [adminMount()], providers: [UsersTool, AuditResource] })
class AdminModule {}

const toolNames = async (t: TestApp, path: string) => ((await post(t.server, rpc('tools/list'), {}, path)).body.result.tools as { name: string }[]).map((tool) => tool.name);

describe('two mounts, each serving the tools of the modules that import it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], imports: [AdminModule] });
  });
  afterAll(() => t.close());

  it('serves the host module’s tool on its mount and the admin module’s on the admin mount, help on both', async () => {
    expect(await toolNames(t, '/mcp')).toEqual(['echo', 'help']);
    expect(await toolNames(t, '/admin/mcp')).toEqual(['help', 'users']);
  });

  it('assigns resources the same way', async () => {
    const main = await post(t.server, rpc('resources/read', { uri: 'admin://audit' }), {}, '/mcp');
    expect(main.status).toBe(404);
    expect(main.body.error.code).toBe(-32601);
    const admin = await post(t.server, rpc('resources/read', { uri: 'admin://audit' }), {}, '/admin/mcp');
    expect(admin.body.result.contents[0].text).toBe('audit log');
  });
});

/** The admin feature with a mount that says more of itself: instructions and caching hints of its own. */
@Module({ imports: [adminMount({ instructions: 'Administrators only.', cache: { ttlMs: 5000, cacheScope: 'public' } })], providers: [AuditResource] })
class DescribedAdminModule {}

describe('two mounts answering server/discover, initialize and ping (each answer made once, per mount)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], imports: [DescribedAdminModule], options: { instructions: 'Main.' } });
  });
  afterAll(() => t.close());

  it("answers server/discover with each mount's own capabilities, instructions, caching hints and serverInfo, asked in turn", async () => {
    for (let round = 0; round < 2; round++) {
      const main = await post(t.server, rpc('server/discover'), {}, '/mcp');
      const admin = await post(t.server, rpc('server/discover'), {}, '/admin/mcp');
      expect(main.body.result).toEqual({
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: { listChanged: true }, logging: {} },
        instructions: 'Main.',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'test-server', version: '1.0.0' } },
      });
      expect(admin.body.result).toEqual({
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { resources: { listChanged: true, subscribe: true }, logging: {} },
        instructions: 'Administrators only.',
        ttlMs: 5000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'admin', version: '1.0.0' } },
      });
    }
  });

  it("answers initialize at each version with each mount's own capabilities, serverInfo and instructions, and ping on both", async () => {
    for (const version of ['2025-06-18', '2025-11-25', '2025-06-18']) {
      const main = await legacyPost(t.server, initialize(version), legacyHeaders(null), '/mcp');
      const admin = await legacyPost(t.server, initialize(version), legacyHeaders(null), '/admin/mcp');
      expect(main.messages[0]!.result).toEqual({
        protocolVersion: version,
        capabilities: { tools: {}, logging: {} },
        serverInfo: { name: 'test-server', version: '1.0.0' },
        instructions: 'Main.',
      });
      expect(admin.messages[0]!.result).toEqual({
        protocolVersion: version,
        capabilities: { resources: {}, logging: {} },
        serverInfo: { name: 'admin', version: '1.0.0' },
        instructions: 'Administrators only.',
      });
      for (const path of ['/mcp', '/admin/mcp'])
        expect((await legacyPost(t.server, { jsonrpc: '2.0', id: 'p', method: 'ping' }, legacyHeaders(version), path)).messages).toEqual([
          { jsonrpc: '2.0', id: 'p', result: {} },
        ]);
    }
  });
});

describe('telemetry events name their mount', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], imports: [AdminModule], configure: (app) => app.setGlobalPrefix('api') });
  });
  afterAll(() => t.close());

  /** What each channel's event names as its mount while `act` runs. */
  async function heard(channels: readonly McpChannel[], act: () => Promise<unknown>): Promise<Record<string, unknown>> {
    const events = await recordEvents(channels, act);
    return Object.fromEntries(events.map(({ channel, message }) => [channel, (message as { mount?: string }).mount]));
  }

  it.each([
    ['/mcp', '/api/mcp'],
    ['/admin/mcp', '/api/admin/mcp'],
  ])('names %s, without the global prefix, in the events of a call, a refusal and the fallthrough at %s', async (mount, url) => {
    const tool = mount === '/mcp' ? 'echo' : 'users';
    const args = mount === '/mcp' ? { text: 'a' } : {};
    expect(await heard(['mcp:tool:start', 'mcp:tool:stop'], () => post(t.server, rpc('tools/call', { name: tool, arguments: args }), {}, url))).toEqual({
      'mcp:tool:start': mount,
      'mcp:tool:stop': mount,
    });
    expect(await heard(['mcp:help:called'], () => post(t.server, rpc('tools/call', { name: 'help', arguments: {} }), {}, url))).toEqual({ 'mcp:help:called': mount });
    expect(await heard(['mcp:wire:reject'], () => post(t.server, '{"jsonrpc":', { 'mcp-method': 'tools/list' }, url))).toEqual({ 'mcp:wire:reject': mount });
    expect(await heard(['mcp:wire:fallthrough'], () => request(t.server).get(url))).toEqual({ 'mcp:wire:fallthrough': mount });
    expect(await heard(['mcp:wire:fallthrough'], () => request(t.server).get(`${url}/below`))).toEqual({ 'mcp:wire:fallthrough': mount });
    expect(await heard(['mcp:wire:fallthrough'], () => request(t.server).get(`${url}/%ZZ`))).toEqual({ 'mcp:wire:fallthrough': mount });
  });

  it('names the path as requested, global prefix included and query left out, in the fallthrough event of a path below a mount', async () => {
    const events = await recordEvents(['mcp:wire:fallthrough'], () => request(t.server).get('/api/admin/mcp/below?token=secret'));
    expect(events.map((event) => event.message)).toEqual([{ mount: '/admin/mcp', verb: 'GET', path: '/api/admin/mcp/below', status: 404 }]);
  });
});

describe("a mount's serves option", () => {
  let t: TestApp;
  beforeAll(async () => {
    @Module({ imports: [adminMount({ serves: [UsersTool, SharedTool] })], providers: [UsersTool] })
    class ListedAdminModule {}
    t = await createTestApp({ providers: [EchoTool, SharedTool, OrphanTool], imports: [ListedAdminModule], options: { serves: [EchoTool, SharedTool, OrphanTool] } });
  });
  afterAll(() => t.close());

  it('serves exactly the listed classes, wherever they are provided', async () => {
    expect(await toolNames(t, '/mcp')).toEqual(['echo', 'help', 'orphan', 'shared']);
    expect(await toolNames(t, '/admin/mcp')).toEqual(['help', 'shared', 'users']);
  });
});

describe('a serves option naming what no module provides as a tool, resource or prompt', () => {
  class NotATool {}
  it.each([
    ['a class with no MCP decorator, though provided', [NotATool], [EchoTool, NotATool], 'serves[1] names NotATool'],
    ['a tool class no module provides', [OrphanTool], [EchoTool], 'serves[1] names OrphanTool'],
  ])('stops the application: %s', async (_case, extra, providers, names) => {
    await expect(createTestApp({ providers, options: { serves: [EchoTool, ...extra] } })).rejects.toThrow(
      `option "serves": ${names}, which no module provides as a tool, resource or prompt: mark it @McpTool, @McpResource, @McpResourceTemplate or @McpPrompt, and list it in a module's providers`,
    );
  });
});

describe('a class listed in one mount’s serves, provided in a module importing another', () => {
  let t: TestApp;
  beforeAll(async () => {
    @Module({ imports: [adminMount()], providers: [OrphanTool] })
    class ImportingAdminModule {}
    t = await createTestApp({ providers: [EchoTool], imports: [ImportingAdminModule], options: { serves: [EchoTool, OrphanTool] } });
  });
  afterAll(() => t.close());

  it('is served by the listing mount only: a listing wins over an import', async () => {
    expect(await toolNames(t, '/mcp')).toEqual(['echo', 'help', 'orphan']);
    // Left with no tool, the admin mount lists none: tools/list is not served there.
    expect((await post(t.server, rpc('tools/list'), {}, '/admin/mcp')).body.error.code).toBe(-32601);
  });
});

describe('two mounts at one path', () => {
  it('stops the application rather than let the first shadow the second', async () => {
    @Module({ imports: [McpModule.forRoot({ path: 'mcp', serverInfo: { name: 'twin', version: '1.0.0' }, telemetryLogger: false })] })
    class TwinModule {}
    // Express: our configuration error; Fastify refuses the duplicate route itself.
    await expect(createTestApp({ providers: [EchoTool], imports: [TwinModule] })).rejects.toThrow(/path "\/mcp": is mounted twice|already declared for route '\/mcp'/);
  });
});

describe('two mounts with bounds of their own', () => {
  @Module({ imports: [adminMount({ maxBodyBytes: 1000 })], providers: [UsersTool] })
  class SmallAdminModule {}
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], imports: [SmallAdminModule] });
  });
  afterAll(() => t.close());

  it("checks each request against its own mount's options: a body one mount takes is over the other's maxBodyBytes", async () => {
    const call = JSON.parse(echoCallOfSize(2000)) as Record<string, unknown>;
    const main = await post(t.server, call);
    expect(main.status).toBe(200);
    expect(main.body.result.content[0].text).toBe((call.params as { arguments: { text: string } }).arguments.text);
    const admin = await post(t.server, call, {}, '/admin/mcp');
    expect(admin.status).toBe(413);
    expect(admin.body.error).toEqual({ code: -32600, message: 'Payload too large: the body exceeds the 1000-byte limit.' });
  });
});

if (TEST_ADAPTER === 'express')
  describe('two mounts whose paths differ only in case (Express)', () => {
    it('stops the application: Express matches paths whatever their case, so the first would shadow the second', async () => {
      @Module({ imports: [McpModule.forRoot({ path: 'MCP', serverInfo: { name: 'twin', version: '1.0.0' }, telemetryLogger: false })] })
      class CaseTwinModule {}
      await expect(createTestApp({ providers: [EchoTool], imports: [CaseTwinModule] })).rejects.toThrow('paths "/mcp" and "/MCP": are one route to Express');
    });
  });

if (TEST_ADAPTER === 'express')
  describe("two mounts whose paths differ only in case, 'case sensitive routing' set once Nest created the router (Express)", () => {
    it('stops the application: the router, created case-blind, would let the first shadow the second', async () => {
      @Module({ imports: [McpModule.forRoot({ path: 'MCP', serverInfo: { name: 'upper', version: '1.0.0' }, telemetryLogger: false })] })
      class CaseTwinModule {}
      const started = createTestApp({
        providers: [EchoTool],
        imports: [CaseTwinModule],
        configure: (app) => (app.getHttpAdapter().getInstance() as express.Express).set('case sensitive routing', true),
      });
      await expect(started).rejects.toThrow('paths "/mcp" and "/MCP": are one route to Express');
    });
  });

if (TEST_ADAPTER === 'express')
  describe("two mounts whose paths differ only in case, on an Express app created with 'case sensitive routing' (Express)", () => {
    it('serves both, each at its own path', async () => {
      const server = express();
      server.set('case sensitive routing', true); // before Nest creates the router, which reads it once
      @Module({
        imports: [
          McpModule.forRoot({ path: 'mcp', serverInfo: { name: 'lower', version: '1.0.0' }, telemetryLogger: false }),
          McpModule.forRoot({ path: 'MCP', serverInfo: { name: 'upper', version: '1.0.0' }, telemetryLogger: false }),
        ],
        providers: [EchoTool],
      })
      class CaseModule {}
      const moduleRef = await Test.createTestingModule({ imports: [CaseModule] }).compile();
      const app = moduleRef.createNestApplication(new ExpressAdapter(server), { bodyParser: false, logger: false, forceCloseConnections: true });
      await app.listen(0, '127.0.0.1');
      try {
        const serverName = async (path: string) =>
          (await post(app.getHttpServer(), rpc('server/discover'), {}, path)).body.result._meta['io.modelcontextprotocol/serverInfo'].name;
        expect([await serverName('/mcp'), await serverName('/MCP')]).toEqual(['lower', 'upper']);
      } finally {
        await app.close();
      }
    });
  });

describe("the bare McpModule class among a module's imports", () => {
  it('stops the application with a configuration error saying to call forRoot, not a dependency error naming internals', async () => {
    @Module({ imports: [McpModule] })
    class BareImportModule {}
    const failure = createTestApp({ providers: [EchoTool], imports: [BareImportModule] });
    await expect(failure).rejects.toThrow(McpConfigurationError);
    await expect(failure).rejects.toThrow('McpModule: is imported as a bare class, which mounts nothing: import McpModule.forRoot(');
  });
});

describe('a tool no mount serves', () => {
  it('stops the application, naming the tool and how to assign it', async () => {
    @Module({ providers: [OrphanTool] })
    class FeatureModule {}
    await expect(createTestApp({ providers: [EchoTool], imports: [AdminModule, FeatureModule] })).rejects.toThrow(
      'tool "orphan" (OrphanTool): is served by no mount: with several mounts ("mcp", "admin/mcp"), list its class in a mount\'s serves option, or provide it in a module that imports the mount',
    );
  });

  it('is served anyway when the application has one mount (every tool is)', async () => {
    @Module({ providers: [OrphanTool] })
    class FeatureModule {}
    const t = await createTestApp({ providers: [EchoTool], imports: [FeatureModule] });
    try {
      expect(await toolNames(t, '/mcp')).toEqual(['echo', 'help', 'orphan']);
    } finally {
      await t.close();
    }
  });
});

/** A feature module that does not import the mount: its controller reuses the guards, its service the event bus. */
@Injectable()
class Announcer {
  constructor(@Inject(McpEventBus) readonly bus: McpEventBus) {}
}

@Controller('feature')
@UseFilters(McpExceptionFilter)
class FeatureController {
  constructor(private readonly announcer: Announcer) {}

  @Post()
  @HttpCode(200)
  @UseGuards(OriginGuard)
  async announce() {
    await this.announcer.bus.publish({ kind: 'toolsListChanged' });
    return { announced: true };
  }
}

@Module({ controllers: [FeatureController], providers: [Announcer] })
class FeatureModule {}

describe('a global mount (isGlobal): its guards, filter and event bus in a feature module that does not import it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], imports: [FeatureModule], global: true });
  });
  afterAll(() => t.close());

  it('runs the origin check on the feature route and answers its refusal in the JSON-RPC dialect', async () => {
    expect((await request(t.server).post('/feature')).body).toEqual({ announced: true });
    const refused = await request(t.server).post('/feature').set('Origin', 'http://evil.example.com');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe(-32600);
  });
});

/** A host route behind every chain guard the mount exports, in the chain's order. */
@Controller('checked')
@UseFilters(McpExceptionFilter)
class CheckedController {
  @Post()
  @HttpCode(200)
  @UseGuards(...CHAIN_GUARDS)
  checked() {
    return { checked: true };
  }
}

describe('a host route in the module importing the mount, behind every chain guard the mount exports', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], controllers: [CheckedController] });
  });
  afterAll(() => t.close());

  it('passes a well-formed MCP request, and answers a refused origin in the JSON-RPC dialect', async () => {
    const call = rpc('tools/list', {}, 'checked');
    const passed = await post(t.server, call, {}, '/checked');
    expect([passed.status, passed.body]).toEqual([200, { checked: true }]);
    const foreign = await post(t.server, call, { origin: 'http://evil.example.com' }, '/checked');
    expect([foreign.status, foreign.body.error.code]).toEqual([403, -32600]);
  });
});

describe('one module importing two mounts, and the event bus', () => {
  const updated = (uri: string) => ({ kind: 'resourceUpdated' as const, uri });
  const uriOf = async (l: Listener, nth: number) => ((await l.nth(nth)).params as { uri?: string }).uri;
  /** Runs `check` with a listen stream open on each mount, then closes the streams and the app, whatever happened. */
  const withStreams = async (t: TestApp, check: (main: Listener, admin: Listener) => Promise<void>) => {
    const notifications = { resourceSubscriptions: ['admin://one', 'admin://two'] };
    const open: Listener[] = [];
    try {
      for (const path of ['/mcp', '/admin/mcp']) open.push(await listen(t.server, notifications, path, {}, path));
      for (const l of open) expect((await l.nth(1)).method).toBe('notifications/subscriptions/acknowledged');
      await check(open[0]!, open[1]!);
    } finally {
      for (const l of open) l.close();
      await t.close();
    }
  };

  it("injects the first imported mount's bus: a change published there reaches that mount's listen streams only", async () => {
    const adminBus = new InProcessEventBus();
    const t = await createTestApp({ providers: [EchoTool, AuditResource, Announcer], imports: [adminMount({ eventBus: adminBus })] });
    await withStreams(t, async (main, admin) => {
      const injected = t.app.get(Announcer).bus;
      expect(injected).not.toBe(adminBus);
      await injected.publish(updated('admin://one'));
      await adminBus.publish(updated('admin://two'));
      await injected.publish(updated('admin://one'));
      // Each stream's second message is the first event of its own bus: the other bus's never reached it.
      expect(await uriOf(admin, 2)).toBe('admin://two');
      expect([await uriOf(main, 2), await uriOf(main, 3)]).toEqual(['admin://one', 'admin://one']);
    });
  });

  it('reaches the listen streams of both mounts when both are given one bus', async () => {
    const shared = new InProcessEventBus();
    const t = await createTestApp({ providers: [EchoTool, AuditResource, Announcer], options: { eventBus: shared }, imports: [adminMount({ eventBus: shared })] });
    await withStreams(t, async (main, admin) => {
      expect(t.app.get(Announcer).bus).toBe(shared);
      await t.app.get(Announcer).bus.publish(updated('admin://one'));
      expect([await uriOf(main, 2), await uriOf(admin, 2)]).toEqual(['admin://one', 'admin://one']);
      expect(shared.subscriberCount).toBe(2);
    });
  });
});

describe('two mounts sharing one task store (as a shared store is shared)', () => {
  const shared = new InProcessTaskStore(100);
  @Module({
    imports: [McpModule.forRoot({ path: 'jobs/mcp', serverInfo: { name: 'jobs', version: '1.0.0' }, telemetryLogger: false, tasks: { store: shared } })],
    providers: [MustTaskTool],
  })
  class JobsModule {}
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [MustTaskTool], imports: [JobsModule], options: { tasks: { store: shared } } });
  });
  afterAll(() => t.close());

  const taskMeta = () => ({ _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS }) });
  const tasksGet = (taskId: string, path: string) => post(t.server, rpc('tasks/get', { taskId, ...taskMeta() }), {}, path);

  it('serves a task only on the mount that created it: another mount answers task_not_found, for tasks/get, tasks/update and tasks/cancel', async () => {
    const created = await post(t.server, rpc('tools/call', { name: 'must_task', arguments: {}, ...taskMeta() }), {}, '/jobs/mcp');
    const taskId = created.body.result.taskId as string;
    expect(shared.size).toBe(1);
    let status: unknown;
    for (let tries = 0; tries < 300 && status !== 'completed'; tries++) status = (await tasksGet(taskId, '/jobs/mcp')).body.result?.status;
    expect(status).toBe('completed');
    const stored = await shared.get(taskId);
    expect(stored).toMatchObject({ mount: '/jobs/mcp', status: 'completed' });
    for (const [method, params] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: {} }],
      ['tasks/cancel', {}],
    ] as const) {
      const other = await post(t.server, rpc(method, { taskId, ...params, ...taskMeta() }), {}, '/mcp');
      expect(other.body.error).toMatchObject({ code: -32602, data: { reason: 'task_not_found' } });
    }
    expect((await tasksGet(taskId, '/jobs/mcp')).body.result).toMatchObject({ taskId, status: 'completed' });
  });
});

describe('the empty-mount warning: a mount that serves no tool, resource or prompt', () => {
  let warn: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  /** The class names a warning lists as marked but provided by no module. */
  const markedNames = (warning: unknown): string[] => String(warning).split('Marked but provided by no module: ')[1]!.replace(/\.$/, '').split(', ');

  /** The empty-mount warnings given while an app built from `spec` started and closed. */
  async function warningsFor(spec: Parameters<typeof createTestApp>[0]): Promise<unknown[]> {
    const t = await createTestApp(spec);
    await t.close();
    return warn.mock.calls
      .map((call: unknown[]) => call[0])
      .filter((message: unknown) => typeof message === 'string' && message.includes('serves no tool, resource or prompt'));
  }

  it('warns once, naming the mount and the marked classes no module provides', async () => {
    const warnings = await warningsFor({});
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      'the mount "mcp" serves no tool, resource or prompt, so its clients get -32601 (method not found) for tools/list and the like: mark each class ' +
        '@McpTool, @McpResource, @McpResourceTemplate or @McpPrompt, and list it in the providers of a module the application imports (with several ' +
        'mounts, one that imports this mount, or name it in its serves option). Marked but provided by no module: ',
    );
    // Ten names at most (this file's process marks more), the first in the order they were marked.
    expect(markedNames(warnings[0])).toHaveLength(11);
    expect(markedNames(warnings[0])).toEqual(expect.arrayContaining(['EchoTool', 'UsersTool', '…']));
  });

  it('names only the mount that serves nothing, of two, and not the classes the application provides', async () => {
    @Module({ imports: [adminMount()] })
    class EmptyAdminModule {}
    const warnings = await warningsFor({ providers: [EchoTool, UsersTool], imports: [EmptyAdminModule] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('the mount "admin/mcp" serves no tool');
    expect(markedNames(warnings[0])).toHaveLength(11);
    expect(markedNames(warnings[0])).not.toEqual(expect.arrayContaining(['EchoTool']));
    expect(markedNames(warnings[0])).not.toEqual(expect.arrayContaining(['UsersTool']));
  });

  it.each([
    ['a tool', [EchoTool]],
    ['a resource alone', [AuditResource]],
  ])('says nothing of a mount serving %s', async (_case, providers) => {
    expect(await warningsFor({ providers })).toEqual([]);
  });
});

describe('list cursors of two mounts sharing their requestState secrets', () => {
  const secrets = ['a-long-random-secret-shared-by-both-mounts-0123456789'];
  let t: TestApp;
  beforeAll(async () => {
    @Module({ imports: [adminMount({ pageSize: 1, requestState: { secrets } })], providers: [UsersTool] })
    class PagedAdminModule {}
    t = await createTestApp({ providers: [EchoTool], imports: [PagedAdminModule], options: { pageSize: 1, requestState: { secrets } } });
  });
  afterAll(() => t.close());

  it("refuses one mount's cursor at the other (400 + -32602, invalid_cursor), though it opens there: a cursor names its mount", async () => {
    const cursor = (await post(t.server, rpc('tools/list'), {}, '/mcp')).body.result.nextCursor as string;
    expect((await post(t.server, rpc('tools/list', { cursor }), {}, '/mcp')).body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['help']);
    const other = await post(t.server, rpc('tools/list', { cursor }), {}, '/admin/mcp');
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_cursor' } });
  });

  it("gives each mount's first page a cursor of its own, which pages on there, whichever mount was listed first", async () => {
    const names = (result: { tools: { name: string }[] }) => result.tools.map((tool) => tool.name);
    const pages: Record<string, string[][]> = { '/mcp': [], '/admin/mcp': [] };
    for (const path of ['/mcp', '/admin/mcp', '/mcp', '/admin/mcp']) {
      const first = (await post(t.server, rpc('tools/list'), {}, path)).body.result;
      const next = await post(t.server, rpc('tools/list', { cursor: first.nextCursor }), {}, path);
      expect(next.status).toBe(200);
      pages[path]!.push([...names(first), ...names(next.body.result)]);
    }
    expect(pages).toEqual({
      '/mcp': [
        ['echo', 'help'],
        ['echo', 'help'],
      ],
      '/admin/mcp': [
        ['help', 'users'],
        ['help', 'users'],
      ],
    });
  });
});

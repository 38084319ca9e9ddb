import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';

import {
  InProcessTaskStore,
  MCP_CHANNELS,
  McpAuthDecision,
  McpResource,
  McpTool,
  type McpChannel,
  type McpContext,
  type McpPlainTool,
  type McpResourceHandler,
} from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { mirroredHeaders, post, rpc } from '../support/mcp-client.js';
import { callTool as callRound } from '../support/mrtr-client.js';
import { ConfirmDeleteTool } from '../support/mrtr-tools.js';
import { callAndNeverRead } from '../support/raw-http.js';
import { MustTaskTool, taskCall } from '../support/task-tools.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { callTool } from '../support/tool-call.js';
import { nextEvent, until } from '../support/wait.js';

const STALL_MS = 300;

@McpTool({ name: 'boom', description: 'Throws.', inputSchema: { type: 'object', properties: {} } })
class BoomTool implements McpPlainTool {
  run(): string {
    throw new RangeError('boom');
  }
}

/** How many times the slow tool has started. */
let slowStarts = 0;

@McpTool({ name: 'slow', description: 'Answers after its signal aborts, or two seconds.', inputSchema: { type: 'object', properties: {} } })
class SlowTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext): Promise<string> {
    slowStarts++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve('late'), 2000);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve('aborted')));
    });
  }
}

@McpTool({ name: 'big', description: 'Answers with 24 MB.', inputSchema: { type: 'object', properties: {} } })
class BigTool implements McpPlainTool {
  run(): string {
    return 'x'.repeat(24 * 1024 * 1024);
  }
}

@McpResource({ uri: 'sweep://broken', name: 'broken' })
class BrokenResource implements McpResourceHandler {
  read(): string {
    throw new Error('the store is down');
  }
}

/** Calls the slow tool and closes the connection once it runs, before the answer. */
async function closeEarly(server: http.Server): Promise<void> {
  const body = rpc('tools/call', { name: 'slow', arguments: {} });
  const started = slowStarts;
  const req = http.request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/mcp', method: 'POST', headers: mirroredHeaders(body) });
  req.on('error', () => undefined);
  req.end(JSON.stringify(body));
  await until(() => slowStarts > started, 'the slow tool to run');
  req.destroy();
}

type Scenario = (t: TestApp) => Promise<unknown> | void;

/** The in-process store, down for every `completed` status (a shared store that lost its connection). */
class NoCompletedStore extends InProcessTaskStore {
  override async update(record: Parameters<InProcessTaskStore['update']>[0]): Promise<void> {
    if (record.status === 'completed') throw new Error('redis: connection lost');
    return super.update(record);
  }
}

/** One scenario per telemetry channel, over real HTTP: a new channel fails to compile here until it has one. */
const SCENARIOS = {
  'mcp:wire:reject': (t) => post(t.server, '{"jsonrpc":', { 'mcp-method': 'tools/list' }),
  'mcp:wire:fallthrough': (t) => request(t.server).get('/mcp'),
  'mcp:method:error': (t) => post(t.server, rpc('resources/read', { uri: 'sweep://broken' })),
  'mcp:auth:error': (t) => post(t.server, rpc('server/discover'), { 'x-sweep-auth': 'throw' }),
  'mcp:tool:start': (t) => callTool(t.server, 'echo', { text: 'a' }),
  'mcp:tool:stop': (t) => callTool(t.server, 'echo', { text: 'a' }),
  'mcp:tool:error': (t) => callTool(t.server, 'boom', {}),
  'mcp:help:called': (t) => callTool(t.server, 'help', { tool: 'echo' }),
  'mcp:mrtr:input_required': (t) => callRound(t.server, 'confirm_delete', { file: 'a.txt' }),
  'mcp:request:cancelled': (t) => closeEarly(t.server),
  'mcp:answer:stalled': async (t) => {
    const socket = await callAndNeverRead(t.server, rpc('tools/call', { name: 'big', arguments: {} }));
    setTimeout(() => socket.destroy(), 10_000).unref();
  },
  'mcp:task:status': (t) => taskCall(t.server, 'must_task'),
  'mcp:seam:error': (t) => taskCall(t.server, 'must_task'), // the store fails to write `completed`
} satisfies Record<McpChannel, Scenario>;

/** The message keys the README's telemetry table promises per channel: required, and optional (`key?`). */
const PROMISED = new Map<string, { required: string[]; optional: string[] }>();
for (const [, names, shapes] of readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  .split('## Telemetry')[1]!
  .matchAll(/^\|\s*(`mcp:[^|]+)\|[^|]+\|\s*(`\{[^|]+)\|$/gm)) {
  const channels = [...names!.matchAll(/`(mcp:[a-z_:]+)`/g)].map((m) => m[1]!);
  const objects = [...shapes!.matchAll(/`\{([^}]*)\}`/g)].map((m) => m[1]!.split(',').map((key) => key.trim()));
  channels.forEach((channel, i) => {
    const keys = objects[i] ?? [];
    PROMISED.set(channel, { required: keys.filter((k) => !k.endsWith('?')), optional: keys.filter((k) => k.endsWith('?')).map((k) => k.slice(0, -1)) });
  });
}

/** The shapes the docs pages give in their own channel tables: one row per channel, its first `{…}` the message. */
const DOCS_SHAPES = readdirSync(new URL('../../docs/', import.meta.url))
  .filter((page) => page.endsWith('.md'))
  .flatMap((page) =>
    [...readFileSync(new URL(`../../docs/${page}`, import.meta.url), 'utf8').matchAll(/^\|\s*`(mcp:[a-z_:]+)`\s*\|.*?`\{([^}]*)\}`/gm)].map(([, channel, keys]) => ({
      page,
      channel: channel!,
      keys: keys!.split(',').map((key) => key.trim()),
    })),
  );

describe('telemetry channel sweep: every channel is published, in the shape the README documents', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool, BoomTool, SlowTool, BigTool, BrokenResource, ConfirmDeleteTool, MustTaskTool],
      options: {
        writeStallTimeoutMs: STALL_MS,
        tasks: { store: new NoCompletedStore(10) },
        auth: {
          authenticate: (req) => {
            if (req.headers['x-sweep-auth'] === 'throw') throw new Error('the identity provider is down');
            return McpAuthDecision.allow({ subject: 'sweeper' });
          },
        },
      },
    });
  });
  afterAll(() => t.close());

  it('has one scenario per channel and one README row per channel', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual([...MCP_CHANNELS].sort());
    expect([...PROMISED.keys()].sort()).toEqual([...MCP_CHANNELS].sort());
  });

  it("finds the docs pages giving the README's shape wherever they give one", () => {
    expect(DOCS_SHAPES.length).toBeGreaterThan(8);
    const promised = (channel: string) => {
      const { required, optional } = PROMISED.get(channel) ?? { required: ['(no README row)'], optional: [] };
      return [...required, ...optional.map((key) => `${key}?`)].sort();
    };
    const differing = DOCS_SHAPES.filter(({ channel, keys }) => JSON.stringify([...keys].sort()) !== JSON.stringify(promised(channel)));
    expect(differing.map(({ page, channel, keys }) => `${page} ${channel} {${keys.join(', ')}}, README {${promised(channel).join(', ')}}`)).toEqual([]);
  });

  it.each([...MCP_CHANNELS])(
    '%s',
    async (channel) => {
      const heard = nextEvent(channel, 10_000);
      await SCENARIOS[channel](t);
      const message = (await heard) as unknown as Record<string, unknown>;
      const { required, optional } = PROMISED.get(channel)!;
      for (const key of required) expect(message).toHaveProperty(key);
      expect(message.mount).toBe('/mcp'); // every event names its mount
      expect(Object.keys(message).filter((key) => !required.includes(key) && !optional.includes(key))).toEqual([]);
    },
    20_000,
  );
});

import diagnosticsChannel from 'node:diagnostics_channel';
import { readFile } from 'node:fs/promises';

import { describe, expect, it } from '@jest/globals';
import type { TestingModuleBuilder } from '@nestjs/testing';
import request from 'supertest';

import { MCP_CHANNELS, McpTool } from '../../lib/index.js';
import { ServerCapabilities } from '../../lib/methods/server-capabilities.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { EchoTool } from '../support/fixture-tools.js';
import { initialize, legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { post, recordEvents, rpc } from '../support/mcp-client.js';
import { useTestApp } from '../support/suite-app.js';
import { createTestApp } from '../support/test-app.js';
import { callTool } from '../support/tool-call.js';
import { FaultyTool } from '../support/tools.js';
import { nextEvent } from '../support/wait.js';

/** A plain tool that opens the file a caller names: Node's ENOENT quotes the path in its message, and so in its stack. */
@McpTool({ name: 'open_file', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } })
class OpenFileTool {
  async run(args: { path: string }): Promise<string> {
    return readFile(args.path, 'utf8');
  }
}

const failingCapabilities = (builder: TestingModuleBuilder) =>
  builder.overrideProvider(ServerCapabilities).useValue({
    current: () => {
      throw new Error('boom');
    },
  });

describe('the telemetry logger', () => {
  it.each([
    ['faults', true, false],
    ['all', true, true],
    [false, false, false],
  ] as const)('in %s mode logs faults: %s, every event: %s', async (mode, logsFaults, logsAll) => {
    const lines: string[] = [];
    const t = await createTestApp({
      providers: [EchoTool],
      options: { telemetryLogger: mode },
      appOptions: { logger: capturingLogger(lines) },
      override: failingCapabilities,
    });
    try {
      expect(diagnosticsChannel.channel('mcp:tool:start').hasSubscribers).toBe(logsAll);
      await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'x' } }));
      await post(t.server, rpc('server/discover'));
      expect(lines.some((l) => l.startsWith('error mcp:method:error'))).toBe(logsFaults);
      expect(lines.some((l) => l.startsWith('debug mcp:tool:start'))).toBe(logsAll);
    } finally {
      await t.close();
    }
    expect(diagnosticsChannel.channel('mcp:method:error').hasSubscribers).toBe(false);
  });

  it('logs a contained fault with its stack: a tool fault at warn, a method fault at error; never on the wire', async () => {
    const lines: string[] = [];
    const t = await createTestApp({
      providers: [FaultyTool, EchoTool],
      options: { telemetryLogger: 'faults' },
      appOptions: { logger: capturingLogger(lines) },
      override: failingCapabilities,
    });
    try {
      const toolAnswer = await callTool(t.server, 'faulty', { action: 'error' });
      expect(JSON.stringify(toolAnswer.result)).not.toContain('FaultyTool.error');
      const discover = await post(t.server, rpc('server/discover'));
      expect(discover.status).toBe(500);
      expect(JSON.stringify(discover.body)).not.toContain(' at ');
      const toolLine = lines.find((l) => l.startsWith('warn mcp:tool:error'));
      expect(toolLine).toContain('"exception":"RangeError"');
      expect(toolLine).toMatch(/\n\s*RangeError: the disk is full[\s\S]*at FaultyTool\.error/);
      const methodLine = lines.find((l) => l.startsWith('error mcp:method:error'));
      expect(methodLine).toMatch(/"method":"server\/discover","id":\d+/);
      expect(methodLine).toMatch(/\nError: boom\n\s+at Object\.current/);
    } finally {
      await t.close();
    }
  });

  it('logs a fault whose message quotes a caller (Node quotes the path it could not open) scrubbed: no forged line, no terminal escape', async () => {
    const lines: string[] = [];
    const t = await createTestApp({ providers: [OpenFileTool], options: { telemetryLogger: 'faults' }, appOptions: { logger: capturingLogger(lines) } });
    try {
      const path = '/nonexistent/\u001b[31mred\n[Nest] 1  - 01/01/2026, 0:00:00 AM   ERROR [Auth] forged line\u202e';
      const answer = await callTool(t.server, 'open_file', { path });
      expect(answer.body).toMatchObject({ errorType: 'tool_fault', exception: 'Error' });
      expect(answer.body.message).toMatch(/^ENOENT: no such file or directory, open '\/nonexistent\/\\u001b\[31mred\\u000a/);
      expect(answer.body.message).not.toContain(' at ');
      const logged = lines.find((l) => l.startsWith('warn mcp:tool:error'))!;
      // The stack's first line, then its frames (none on Node 26, whose fs/promises errors carry no stack frames).
      expect(logged).toMatch(/\nError: ENOENT: no such file or directory, open '\/nonexistent\/\\u001b\[31mred\\u000a\[Nest\] 1 {2}- .*forged line\\u202e'\n/);
      expect(logged).not.toMatch(/[\u001b\u202e]/);
      expect(logged.split('\n').filter((line) => line.includes('forged line'))).toHaveLength(2); // the event's error field, the stack's first line
      for (const line of logged.split('\n').slice(2, -1)) expect(line).toMatch(/^ {4}at /); // the last: the logger's context
    } finally {
      await t.close();
    }
  });

  it('gives a string request id bounded in its events and log lines: a 100,000-character id', async () => {
    const lines: string[] = [];
    const t = await createTestApp({
      providers: [EchoTool],
      options: { telemetryLogger: 'all' },
      appOptions: { logger: capturingLogger(lines) },
      override: failingCapabilities,
    });
    try {
      const id = `\u202e${'i'.repeat(100_000)}`;
      const [rejected, faulted] = await Promise.all([
        nextEvent('mcp:wire:reject'),
        post(t.server, rpc('tools/list', {}, id), { 'mcp-method': 'tools/call' }).then(() => nextEvent('mcp:method:error')),
        post(t.server, rpc('server/discover', {}, id)),
      ]);
      for (const event of [rejected, faulted]) {
        expect(typeof event.id).toBe('string');
        expect((event.id as string).length).toBeLessThanOrEqual(256);
        expect(event.id).toMatch(/^\\u202eiii/);
      }
      const logged = lines.filter((l) => /mcp:(wire:reject|method:error)/.test(l));
      expect(logged).toHaveLength(2);
      for (const line of logged) expect(line.split('\n')[0]!.length).toBeLessThan(1_000);
    } finally {
      await t.close();
    }
  });

  it('logs what a client sent only bounded: a 100,000-character method or a 5,000-character path', async () => {
    const lines: string[] = [];
    const t = await createTestApp({ providers: [EchoTool], options: { telemetryLogger: 'all' }, appOptions: { logger: capturingLogger(lines) } });
    try {
      const method = `x/${'m'.repeat(100_000)}`;
      const res = await post(t.server, { ...rpc('tools/list'), method }, { 'mcp-method': null });
      expect(res.status).toBe(400); // no Mcp-Method header (one this long would not fit in a request head)
      const below = await request(t.server).get(`/mcp/${'p'.repeat(5_000)}`);
      expect(below.status).toBe(404);
      const logged = lines.filter((l) => /mcp:wire:(reject|fallthrough)/.test(l));
      expect(logged).toHaveLength(2);
      for (const line of logged) expect(line.length).toBeLessThan(500);
    } finally {
      await t.close();
    }
  });
});

describe('a method fault', () => {
  it("is answered 200 + -32603 on the legacy era, as that era reads errors, naming the method; its event's error bounded to 500 characters", async () => {
    const t = await createTestApp({
      providers: [EchoTool],
      options: { telemetryLogger: false },
      override: (builder) =>
        builder.overrideProvider(ServerCapabilities).useValue({
          current: () => {
            throw new Error('x'.repeat(2000));
          },
        }),
    });
    try {
      let res: Awaited<ReturnType<typeof legacyPost>> | undefined;
      const events = await recordEvents(['mcp:method:error'], async () => {
        res = await legacyPost(t.server, initialize('2025-11-25'), legacyHeaders(null));
      });
      expect([res!.status, res!.messages[0]!.error]).toEqual([200, { code: -32603, message: 'Internal error while handling initialize.' }]);
      expect(events.map((event) => [event.message.era, event.message.error.length])).toEqual([['legacy', 500]]);
    } finally {
      await t.close();
    }
  });
});

describe("the telemetry logger's level for each channel, in 'all' mode", () => {
  const lines: string[] = [];
  useTestApp({ providers: [EchoTool], options: { telemetryLogger: 'all' }, appOptions: { logger: capturingLogger(lines) } });

  // As documented: method, auth and seam faults at error, a contained tool fault at warn, every other event at debug.
  it.each(MCP_CHANNELS)('logs %s at its level', (channel) => {
    const level = channel === 'mcp:tool:error' ? 'warn' : channel.endsWith(':error') ? 'error' : 'debug';
    lines.length = 0;
    diagnosticsChannel.channel(channel).publish({ mount: '/mcp' });
    expect(lines.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([`${level} ${channel}`]);
  });
});

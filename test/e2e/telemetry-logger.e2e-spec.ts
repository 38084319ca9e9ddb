import diagnosticsChannel from 'node:diagnostics_channel';

import { describe, expect, it } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import type { TestingModuleBuilder } from '@nestjs/testing';
import request from 'supertest';

import { ServerCapabilities } from '../../lib/methods/server-capabilities.js';
import { EchoTool } from '../support/fixture-tools.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';
import { callTool } from '../support/tool-call.js';
import { FaultyTool } from '../support/tools.js';

/** A Nest logger that keeps every line it is given. */
function capturingLogger(lines: string[]): LoggerService {
  const keep =
    (level: string) =>
    (...params: unknown[]) =>
      lines.push(`${level} ${params.map(String).join('\n')}`);
  return { log: keep('log'), error: keep('error'), warn: keep('warn'), debug: keep('debug'), verbose: keep('verbose'), fatal: keep('fatal') };
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

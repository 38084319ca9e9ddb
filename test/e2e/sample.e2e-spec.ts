import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';

/** Finds a free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/**
 * `npm start` as a user runs it: builds and serves the sample app. Proves the README's set-up command and the
 * quick start it copies from sample/ stay true.
 */
describe('npm start (the sample app)', () => {
  let child: ChildProcess;
  let port: number;
  let output = '';

  beforeAll(async () => {
    port = await freePort();
    child = spawn('npm', ['start'], { env: { ...process.env, PORT: String(port) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 90_000;
    while (!output.includes('MCP server listening')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the sample did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 100_000);

  afterAll(() => {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  });

  it('listens on 127.0.0.1 at PORT and answers server/discover with a schema-valid result', async () => {
    expect(output).toContain(`http://127.0.0.1:${port}/mcp`);
    const body = {
      jsonrpc: '2.0',
      id: 'sample-1',
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'sample-test', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { result: { capabilities: Record<string, unknown> } };
    expect((await ProtocolSchema.vendored()).check('DiscoverResultResponse', answer)).toEqual([]);
    expect(answer.result.capabilities.tools).toEqual({ listChanged: true });
  });
});

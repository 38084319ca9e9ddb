import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from '@jest/globals';
import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';

import { PendingInputRequests } from '../../lib/mrtr/pending-input-requests.js';
import { EchoTool } from '../support/fixture-tools.js';
import { legacyToolCall } from '../support/legacy-client.js';
import { listen } from '../support/listen.js';
import { mirroredHeaders, rpc } from '../support/mcp-client.js';
import { meta } from '../support/mcp-client.js';
import { ConfirmDeleteTool } from '../support/mrtr-tools.js';
import { SleeperTool, TASK_CAPS, taskRuns } from '../support/task-tools.js';
import { createTestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

/** Holds the application's shutdown after its first hooks (onModuleDestroy) ran, until released. */
@Injectable()
class HeldShutdown implements BeforeApplicationShutdown {
  static reached = false;
  static release: () => void = () => undefined;
  beforeApplicationShutdown(): Promise<void> {
    HeldShutdown.reached = true;
    return new Promise((resolve) => (HeldShutdown.release = resolve));
  }
}

/**
 * One request of the mount over a keep-alive agent: a POST of `body` (`extra` headers added), or a GET without one.
 * Resolves with the status, the Connection header and the parsed JSON body.
 */
function keepAliveRequest(
  port: number,
  agent: http.Agent,
  body?: Record<string, unknown>,
  extra: Record<string, string> = {},
): Promise<{ status: number; connection: string | undefined; body: any }> {
  return new Promise((resolve, reject) => {
    const method = body ? 'POST' : 'GET';
    const headers = body ? { ...mirroredHeaders(body), ...extra } : { accept: 'text/event-stream', ...extra };
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

describe('shutdown (app.close(), or a signal with enableShutdownHooks())', () => {
  it('ends a 2025-era call waiting for its client to answer an input request: close does not wait for the answer, the call ends shutting_down', async () => {
    const t = await createTestApp({
      providers: [ConfirmDeleteTool],
      options: { legacyInputRequests: { timeoutMs: 30_000 } },
      appOptions: { forceCloseConnections: false }, // the server's close waits for this connection
    });
    let asked = false;
    const call = legacyToolCall(t.server, 'confirm_delete', { file: 'notes.txt' }, () => ((asked = true), 'no-answer'));
    await until(() => asked, 'the input request');
    expect(t.app.get(PendingInputRequests).size).toBe(1);
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    const { messages } = await call;
    expect(messages.at(-1)).toMatchObject({ jsonrpc: '2.0', id: 'call-confirm_delete', error: { code: -32603, data: { reason: 'shutting_down' } } });
    expect(messages.at(-1)!.error.message).toMatch(/^Internal error: the server is shutting down, so the input request is withdrawn before its answer came; /);
  }, 20_000);

  it('closes each connection after its answer once shutdown began, and starts no task then (503 shutting_down)', async () => {
    HeldShutdown.reached = false;
    const t = await createTestApp({ providers: [EchoTool, SleeperTool, HeldShutdown], appOptions: { forceCloseConnections: false } });
    const port = (t.server.address() as AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    try {
      const before = await keepAliveRequest(port, agent, rpc('tools/call', { name: 'echo', arguments: { text: 'before' } }));
      expect(before.connection).toBe('keep-alive');
      const inFlight = keepAliveRequest(port, agent, rpc('tools/call', { name: 'sleeper', arguments: { ms: 300, tag: 'in-flight-at-shutdown' } }));
      await until(() => taskRuns.has('in-flight-at-shutdown'), 'the call to run');
      const closed = t.close();
      await until(() => HeldShutdown.reached, 'the shutdown to begin');
      // A call under way when shutdown began runs to its end, and its answer closes its connection.
      expect(await inFlight).toMatchObject({ status: 200, connection: 'close', body: { result: { content: [{ text: 'slept 300 ms' }] } } });
      const during = await keepAliveRequest(port, agent, rpc('tools/call', { name: 'echo', arguments: { text: 'during' } }));
      expect(during).toMatchObject({ status: 200, connection: 'close' });
      const refused = await keepAliveRequest(port, agent, rpc('tools/list'), { origin: 'http://evil.example.com' });
      expect(refused).toMatchObject({ status: 403, connection: 'close', body: { error: { code: -32600 } } });
      const notAllowed = await keepAliveRequest(port, agent);
      expect(notAllowed).toMatchObject({ status: 405, connection: 'close', body: { error: { code: -32600 } } });
      const task = await keepAliveRequest(
        port,
        agent,
        rpc('tools/call', { name: 'sleeper', arguments: { ms: 10, tag: 'task-at-shutdown' }, _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': TASK_CAPS }) }),
      );
      expect(task).toMatchObject({ status: 503, connection: 'close', body: { error: { code: -32603, data: { reason: 'shutting_down' } } } });
      expect(taskRuns.has('task-at-shutdown')).toBe(false);
      HeldShutdown.release();
      await closed;
    } finally {
      HeldShutdown.release();
      agent.destroy();
    }
  }, 20_000);

  it('acknowledges a listen request that arrives once shutdown began, then ends it at once with its result', async () => {
    HeldShutdown.reached = false;
    const t = await createTestApp({ providers: [EchoTool, HeldShutdown], options: { subscriptions: { keepAliveMs: 60_000 } } });
    try {
      const closed = t.close();
      await until(() => HeldShutdown.reached, 'the shutdown to begin');
      const l = await listen(t.server, { toolsListChanged: true }, 'late');
      // Ended while the shutdown is still held: nothing but its own start ended it.
      let ended = false;
      void l.ended.then(() => (ended = true));
      await until(() => ended, 'the stream to end', 2_000);
      expect(l.messages.map((m) => m.method ?? 'response')).toEqual(['notifications/subscriptions/acknowledged', 'response']);
      expect(l.messages.at(-1)).toMatchObject({ id: 'late', result: { resultType: 'complete' } });
      HeldShutdown.release();
      await closed;
    } finally {
      HeldShutdown.release();
    }
  }, 20_000);
});

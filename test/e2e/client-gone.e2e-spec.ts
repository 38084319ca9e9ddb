import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from '@jest/globals';

import { McpPrompt, McpResource, McpTool, type McpHandlerContext, type McpPlainTool, type McpPromptHandler, type McpResourceHandler } from '../../lib/index.js';
import { legacyHeaders } from '../support/legacy-client.js';
import { mirroredHeaders, post, recordEvents, rpc } from '../support/mcp-client.js';
import { useTestApp } from '../support/suite-app.js';
import { until } from '../support/wait.js';

/** Handlers that wait until their call is cancelled, then fail, as a handler whose input request was withdrawn does. */
const runs = { started: 0, failed: 0 };

async function giveUpOnceCancelled(ctx: McpHandlerContext): Promise<never> {
  runs.started++;
  await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
  runs.failed++;
  throw new Error('the call gave up: its input request was withdrawn');
}

@McpResource({ uri: 'slow://gone', name: 'gone' })
class GoneResource implements McpResourceHandler {
  read(ctx: McpHandlerContext) {
    return giveUpOnceCancelled(ctx);
  }
}

@McpPrompt({ name: 'gone', description: 'Waits until its call is cancelled.' })
class GonePrompt implements McpPromptHandler {
  get(_args: Record<string, string>, ctx: McpHandlerContext) {
    return giveUpOnceCancelled(ctx);
  }
}

@McpTool({ name: 'gone', description: 'Waits until its call is cancelled.', inputSchema: { type: 'object', properties: {} } })
class GoneTool implements McpPlainTool {
  run(_args: unknown, ctx: McpHandlerContext) {
    return giveUpOnceCancelled(ctx);
  }
}

/** A broken resource, failing while its client waits: a fault, logged as one. */
@McpResource({ uri: 'slow://broken', name: 'broken' })
class BrokenResource implements McpResourceHandler {
  read(): never {
    throw new Error('the store is down');
  }
}

const CALLS = [
  ['resources/read', { uri: 'slow://gone' }],
  ['prompts/get', { name: 'gone' }],
  ['tools/call', { name: 'gone', arguments: {} }],
] as const;

describe('a fault of a call whose client left', () => {
  const app = useTestApp({ providers: [GoneResource, GonePrompt, GoneTool, BrokenResource] });

  /** Sends the call over a raw connection, drops the connection once the handler runs, and waits for it to fail. */
  async function leave(body: Record<string, unknown>, headers: Record<string, string>) {
    const before = { ...runs };
    const port = (app().server.address() as AddressInfo).port;
    return recordEvents(['mcp:method:error', 'mcp:tool:error', 'mcp:request:cancelled'], async () => {
      const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers });
      req.on('error', () => undefined);
      req.end(JSON.stringify(body));
      await until(() => runs.started > before.started, 'the handler to run');
      req.destroy();
      await until(() => runs.failed > before.failed, 'the handler to fail');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }

  it.each(CALLS)('%s on the 2026-07-28 era is the cancellation: mcp:request:cancelled, no mcp:method:error or mcp:tool:error', async (method, params) => {
    const body = rpc(method, params);
    const events = await leave(body, mirroredHeaders(body));
    expect(events).toEqual([{ channel: 'mcp:request:cancelled', message: { mount: '/mcp', method, id: body.id, by: 'close' } }]);
  });

  it.each(CALLS)('%s on the legacy era likewise', async (method, params) => {
    const events = await leave({ jsonrpc: '2.0', id: 1, method, params }, legacyHeaders());
    expect(events).toEqual([{ channel: 'mcp:request:cancelled', message: { mount: '/mcp', method, id: 1, by: 'close' } }]);
  });

  it('while a client waits, a fault is still one mcp:method:error', async () => {
    const events = await recordEvents(['mcp:method:error', 'mcp:request:cancelled'], async () => {
      const res = await post(app().server, rpc('resources/read', { uri: 'slow://broken' }));
      expect([res.status, res.body.error.code]).toEqual([500, -32603]);
    });
    expect(events).toEqual([
      { channel: 'mcp:method:error', message: expect.objectContaining({ method: 'resources/read', error: expect.stringContaining('the store is down') }) },
    ]);
  });
});

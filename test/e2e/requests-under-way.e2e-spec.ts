import { describe, expect, it } from '@jest/globals';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';

import { requestRecord } from '../../lib/contracts/request-record.js';
import { McpTool, type McpPlainTool } from '../../lib/index.js';
import { RequestsUnderWay } from '../../lib/methods/requests-under-way.js';
import { valuesWithin } from '../../lib/protocol/nesting.js';
import { nodeRequest } from '../../lib/util/node-http.js';
import { EchoTool } from '../support/fixture-tools.js';
import { legacyPost } from '../support/legacy-client.js';
import { listen } from '../support/listen.js';
import { mirroredHeaders, post, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

/** Rests until a test releases it, by tag: a request under way for as long as the test wants. */
@McpTool({
  name: 'held',
  description: 'Rests until released.',
  inputSchema: { type: 'object', properties: { tag: { type: 'string' }, pad: { type: 'string' } }, required: ['tag'] },
})
class HeldTool implements McpPlainTool {
  static readonly started = new Set<string>();
  static readonly releases = new Map<string, () => void>();
  async run(args: { tag: string }): Promise<string> {
    HeldTool.started.add(args.tag);
    await new Promise<void>((resolve) => HeldTool.releases.set(args.tag, resolve));
    return `released ${args.tag}`;
  }
}

/** A call of `held` whose request is the same size for every tag of the same length (seven characters in these tests): about 40 kB with its pad. */
const heldCall = (tag: string) => rpc('tools/call', { name: 'held', arguments: { tag, pad: 'p'.repeat(40_000) } }, `id-${tag}`);

/** Starts a `held` call and waits until its tool runs; `answer` resolves with the call's answer once released. */
async function started(t: TestApp, tag: string): Promise<{ answer: Promise<any> }> {
  const answer = post(t.server, heldCall(tag)).then((res) => res.body);
  await until(() => HeldTool.started.has(tag), `the call ${tag} to start`);
  return { answer };
}

/** The footprint a refusal names for the refused request. */
const refusedBytes = (message: string): number => Number(/and this one has (\d+);/.exec(message)![1]);

/**
 * What a call counts (one of `held` unless given), read from its refusal by a mount that takes no request; `text`:
 * the call's body as sent, when not its JSON.
 */
async function heldCallBytes(call: Record<string, unknown> = heldCall('measure'), text?: string): Promise<number> {
  const t = await createTestApp({ providers: [HeldTool], options: { maxUnderWayBytes: 1 } });
  try {
    return refusedBytes((await post(t.server, text ?? call, text === undefined ? {} : mirroredHeaders(call))).body.error.message);
  } finally {
    await t.close();
  }
}

describe('requests under way (maxUnderWayBytes)', () => {
  it('runs a request that brings them exactly to the bound and refuses the next (503 + -32603, its handler never run) until one settles', async () => {
    const bytes = await heldCallBytes();
    const t = await createTestApp({ providers: [HeldTool], options: { maxUnderWayBytes: bytes } });
    try {
      const first = await started(t, 'exact-1');
      expect(t.app.get(RequestsUnderWay).held).toBe(bytes);
      const refused = await post(t.server, heldCall('exact-2'));
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ id: 'id-exact-2', error: { code: -32603, data: { reason: 'under_way_bytes_limit' } } });
      expect(refused.body.error.message).toBe(
        `Internal error: the requests under way on this server already hold ${bytes} of the ${bytes} bytes they may, and this one has ${bytes}; retry later, or send a smaller request.`,
      );
      expect(HeldTool.started.has('exact-2')).toBe(false);
      HeldTool.releases.get('exact-1')!();
      expect((await first.answer).result.content).toEqual([{ type: 'text', text: 'released exact-1' }]);
      expect(t.app.get(RequestsUnderWay).held).toBe(0);
      const again = await started(t, 'exact-3');
      HeldTool.releases.get('exact-3')!();
      expect((await again.answer).result.content).toEqual([{ type: 'text', text: 'released exact-3' }]);
    } finally {
      await t.close();
    }
  });

  it('lets small requests into the room large ones leave, and gives back the bytes of every request however it ended', async () => {
    const bytes = await heldCallBytes();
    const t = await createTestApp({ providers: [HeldTool], options: { maxUnderWayBytes: 2 * bytes + bytes / 2 } });
    try {
      const calls = [await started(t, 'roomy-1'), await started(t, 'roomy-2')];
      const third = await post(t.server, heldCall('roomy-3'));
      expect(third.body.error.data.reason).toBe('under_way_bytes_limit');
      // A small request fits in what is left.
      const list = await post(t.server, rpc('tools/list'));
      expect(list.body.result.tools.map((tool: { name: string }) => tool.name)).toContain('held');
      // A request its handler refuses gives its bytes back too.
      const unknown = await post(t.server, rpc('tools/call', { name: 'no_such_tool', arguments: {} }));
      expect(unknown.body.error.code).toBe(-32602);
      expect(t.app.get(RequestsUnderWay).held).toBe(2 * bytes);
      for (const tag of ['roomy-1', 'roomy-2']) HeldTool.releases.get(tag)!();
      await Promise.all(calls.map((call) => call.answer));
      expect(t.app.get(RequestsUnderWay).held).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('counts a request whose text holds a character past ASCII, or an escape spelling one, at two bytes a character: V8 keeps such a string wide', async () => {
    const narrow = await heldCallBytes(rpc('tools/call', { name: 'held', arguments: { tag: 'narrow', pad: 'p'.repeat(40_000) } }, 'narrow'));
    const wideCall = rpc('tools/call', { name: 'held', arguments: { tag: 'wide€€', pad: 'p'.repeat(40_000) } }, 'narrow');
    const wide = await heldCallBytes(wideCall);
    // All ASCII as it arrives, the same wide string once parsed.
    const escaped = await heldCallBytes(wideCall, JSON.stringify(wideCall).replaceAll('€', '\\u20ac'));
    expect(narrow).toBeLessThan(45_000);
    expect(wide).toBeGreaterThan(80_000);
    expect(escaped).toBeGreaterThan(80_000);
  });

  it('refuses with 200 on the legacy era, and never counts a listen stream (it counts under subscriptions.maxOpenBytes)', async () => {
    const t = await createTestApp({ providers: [HeldTool], options: { maxUnderWayBytes: 1 } });
    try {
      const legacy = await legacyPost(t.server, { jsonrpc: '2.0', id: 'legacy', method: 'tools/call', params: { name: 'held', arguments: { tag: 'legacy' } } });
      expect(legacy.status).toBe(200);
      expect(legacy.messages).toEqual([
        { jsonrpc: '2.0', id: 'legacy', error: expect.objectContaining({ code: -32603, data: expect.objectContaining({ reason: 'under_way_bytes_limit' }) }) },
      ]);
      expect(HeldTool.started.has('legacy')).toBe(false);
      const stream = await listen(t.server, { toolsListChanged: true }, 'apart');
      expect((await stream.nth(1)).method).toBe('notifications/subscriptions/acknowledged');
      expect(t.app.get(RequestsUnderWay).held).toBe(0);
      expect((await post(t.server, rpc('tools/list'))).status).toBe(503);
      stream.close();
    } finally {
      await t.close();
    }
  });

  it('keeps the count of values message validation made, so the footprint walks no message again', async () => {
    const counted: (number | undefined)[] = [];
    /** Reads the record as the handler will see it: after every stage of the POST chain. */
    const reader: NestInterceptor = {
      intercept(context: ExecutionContext, next: CallHandler) {
        counted.push(requestRecord(nodeRequest(context.switchToHttp().getRequest())).values);
        return next.handle();
      },
    };
    const t = await createTestApp({ providers: [EchoTool], configure: (app) => app.useGlobalInterceptors(reader) });
    try {
      const call = rpc('tools/call', { name: 'echo', arguments: { text: 'counted' } });
      expect((await post(t.server, call)).body.result).toBeDefined();
      expect(counted).toEqual([valuesWithin(call)]);
    } finally {
      await t.close();
    }
  });
});

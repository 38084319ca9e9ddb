import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from '@jest/globals';

import { type McpAuth, type McpAuthDecision } from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { LateShutdownHold, LateShutdownHoldModule } from '../support/late-shutdown-hold.js';
import { initialize, legacyPost } from '../support/legacy-client.js';
import { post, recordEvents, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

/** An auth provider that, once `hang` is set, never answers (a verifier stuck on an unreachable key server). */
class StuckAuth implements McpAuth {
  hang = false;
  authenticate(_req: IncomingMessage): Promise<McpAuthDecision> {
    return this.hang ? new Promise(() => undefined) : Promise.resolve({ outcome: 'allow' });
  }
}

describe('an auth provider that never answers, at shutdown', () => {
  it('does not hold app.close() past shutdownGraceMs: the waiting request is answered 503 + -32603 shutting_down', async () => {
    const auth = new StuckAuth();
    const t = await createTestApp({ providers: [EchoTool], options: { auth, shutdownGraceMs: 200 }, appOptions: { forceCloseConnections: false } });
    auth.hang = true;
    const stuck = post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } })).then(
      (res) => res,
      () => undefined,
    );
    await sleep(100);
    const started = Date.now();
    const closed = t.app.close().then(() => Date.now() - started);
    const outcome = await Promise.race([closed, sleep(3000).then(() => 'still closing after 3 s')]);
    if (typeof outcome === 'string') t.server.closeAllConnections();
    await closed;
    expect(outcome).toBeLessThan(2000);
    const res = await stuck;
    expect(res?.status).toBe(503);
    expect(res?.body.error).toMatchObject({ code: -32603, data: { reason: 'shutting_down' } });
  });

  it('once the deadline passed (another hook still holding the close), a request it would keep waiting is answered at once', async () => {
    const auth = new StuckAuth();
    LateShutdownHold.reached = false;
    const t = await createTestApp({
      providers: [EchoTool],
      imports: [LateShutdownHoldModule],
      options: { auth, shutdownGraceMs: 100 },
      appOptions: { forceCloseConnections: false },
    });
    const closingAt = Date.now();
    const closed = t.app.close();
    try {
      await until(() => LateShutdownHold.reached && Date.now() > closingAt + 150, 'the deadline to pass');
      auth.hang = true;
      const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }, 'after'));
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ id: 'after', error: { code: -32603, data: { reason: 'shutting_down' } } });
      expect(res.body.error.message).toContain('the auth provider had not decided on the request');
    } finally {
      LateShutdownHold.release();
      await closed;
    }
  }, 20_000);
});

describe('an auth provider whose answer cannot even be read as a promise or a decision', () => {
  it.each([
    [
      'a then that throws when read',
      () =>
        Object.defineProperty({}, 'then', {
          get: () => {
            throw new Error('then getter');
          },
        }),
    ],
    [
      'a proxy whose every trap throws',
      () =>
        new Proxy(
          {},
          {
            get: () => {
              throw new Error('trap');
            },
            getPrototypeOf: () => {
              throw new Error('trap');
            },
          },
        ),
    ],
  ])('answers %s as a provider fault (500 + -32603, mcp:auth:error), on both eras', async (_what, answer) => {
    const t = await createTestApp({ providers: [EchoTool], options: { auth: { authenticate: () => answer() as unknown as McpAuthDecision } } });
    try {
      const events = await recordEvents(['mcp:auth:error', 'mcp:method:error'], async () => {
        const modern = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }));
        expect([modern.status, modern.body.error]).toEqual([500, { code: -32603, message: 'Internal error: the auth provider failed.' }]);
        const legacy = await legacyPost(t.server, initialize());
        expect([legacy.status, legacy.messages[0]!.error]).toEqual([500, { code: -32603, message: 'Internal error: the auth provider failed.' }]);
      });
      expect(events.map((e) => e.channel)).toEqual(['mcp:auth:error', 'mcp:auth:error']);
    } finally {
      await t.close();
    }
  });
});

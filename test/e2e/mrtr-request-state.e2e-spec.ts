import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';

import { McpAuthDecision, McpConfigurationError } from '../../lib/index.js';
import { RANDOM_SECRET_WARNING } from '../../lib/mrtr/mrtr-rounds.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { mirroredHeaders, post, recordEvents } from '../support/mcp-client.js';
import { accept, callTool, toolCall } from '../support/mrtr-client.js';
import { ConfirmDeleteTool, ThreeRoundsTool, sideEffects } from '../support/mrtr-tools.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const schema = await ProtocolSchema.vendored();

const OLD = 'old-secret-0123456789-abcdefghijklmnopqrstuvwxyz-OLD';
const NEW = 'new-secret-9876543210-zyxwvutsrqponmlkjihgfedcba-NEW';
const OTHER = 'other-secret-AbCdEfGhIjKlMnOpQrStUvWxYz-0123456789';
const TOOLS = [ConfirmDeleteTool, ThreeRoundsTool];
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const CONFIRM = { confirm: accept({ confirm: true }) };

const app = (secrets: string[] | undefined, extra: Record<string, unknown> = {}) =>
  createTestApp({ providers: TOOLS, options: { requestState: secrets ? { secrets, ...extra } : { ...extra } } });

/** Round one of confirm_delete on one app: its requestState. */
async function roundOne(t: TestApp, file: string | Record<string, unknown> = 'x.txt', headers: Record<string, string> = {}): Promise<string> {
  const res = await callTool(t.server, 'confirm_delete', typeof file === 'string' ? { file } : file, { headers });
  expect(res.body.result?.resultType).toBe('input_required');
  return res.body.result.requestState as string;
}

/** Expects a refused requestState: 400 + -32602 naming the problem, and the tool never ran. */
function expectRefused(res: { status: number; body: any }, problem: string): void {
  expect(res.status).toBe(400);
  expect(schema.check('JSONRPCErrorResponse', res.body)).toEqual([]);
  expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state', problem } });
  expect(res.body.id).toBeDefined();
  expect(sideEffects).toEqual([]);
}

describe('requestState: sealed, verified before any tool runs', () => {
  const apps: TestApp[] = [];
  const boot = async (...args: Parameters<typeof app>) => {
    const t = await app(...args);
    apps.push(t);
    return t;
  };
  let a: TestApp;
  beforeAll(async () => {
    a = await boot([OLD]);
  });
  afterAll(() => Promise.all(apps.map((t) => t.close())));
  beforeEach(() => {
    sideEffects.length = 0;
  });

  it('refuses a tampered state (the conformance suite appends "-TAMPERED")', async () => {
    const state = await roundOne(a);
    const res = await callTool(a.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: `${state}-TAMPERED` });
    expectRefused(res, 'tampered');
  });

  it('refuses a state whose payload was edited and re-encoded under the old tag', async () => {
    const state = await roundOne(a);
    const [version, payload, tag] = state.split('.');
    const edited = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    edited.exp += 3_600_000;
    const forged = `${version}.${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${tag}`;
    const res = await callTool(a.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: forged });
    expectRefused(res, 'tampered');
  });

  it.each([['garbage'], [''], ['v2.abc.def'], ['v1..'], ['v1.a.b.c']])('refuses a malformed state %p', async (requestState) => {
    const res = await callTool(a.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState });
    expectRefused(res, 'malformed');
  });

  it('refuses a state sealed for another call (other arguments)', async () => {
    const state = await roundOne(a, 'x.txt');
    const res = await callTool(a.server, 'confirm_delete', { file: 'other.txt' }, { inputResponses: CONFIRM, requestState: state });
    expectRefused(res, 'other_call');
    expect(res.body.error.message).toBe('Invalid params: requestState belongs to another call (another mount, method, tool, resource, prompt or arguments).');
  });

  it('never binds a state to {limit: 1e400}: the value gate refuses the number before the state is opened', async () => {
    const state = await roundOne(a, { file: 'x.txt', limit: null });
    const body = toolCall('confirm_delete', { file: 'x.txt', limit: null }, { inputResponses: CONFIRM, requestState: state });
    const text = JSON.stringify(body).replace('"limit":null', '"limit":1e400');
    expect(text).toContain('1e400');
    const res = await post(a.server, text, mirroredHeaders(body));
    expect(res.body.result.isError).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text)).toMatchObject({ error: 'invalid_values', invalid_count: 1 });
    expect(sideEffects).toEqual([]);
  });

  it('accepts one spelling of a tag only: the unused low bits of its last character may not vary', async () => {
    const state = await roundOne(a);
    const last = state.at(-1)!;
    const value = BASE64URL.indexOf(last);
    expect(value % 4).toBe(0);
    for (const other of [1, 2, 3].map((low) => BASE64URL[value + low]!)) {
      const res = await callTool(a.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: state.slice(0, -1) + other });
      expectRefused(res, 'tampered');
    }
    const res = await callTool(a.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: state });
    expect(res.body.result.content[0].text).toBe('Deleted x.txt.');
  });

  it('refuses a state sealed under another secret (a foreign server)', async () => {
    const foreign = await boot([OTHER]);
    const state = await roundOne(foreign);
    const res = await callTool(a.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: state });
    expectRefused(res, 'tampered');
  });

  it('refuses an expired state', async () => {
    const short = await boot([OLD], { ttlMs: 40 });
    const state = await roundOne(short);
    await sleep(80);
    const res = await callTool(short.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: state });
    expectRefused(res, 'expired');
    expect(res.body.error.message).toBe('Invalid params: requestState has expired; retry the call without requestState and inputResponses.');
  });

  it('refuses a state sealed for another caller (bound to the auth subject)', async () => {
    const withAuth = await createTestApp({
      providers: TOOLS,
      options: {
        requestState: { secrets: [OLD] },
        auth: { authenticate: (req) => McpAuthDecision.allow({ subject: String(req.headers['x-user']) }) },
      },
    });
    apps.push(withAuth);
    const state = await roundOne(withAuth, 'x.txt', { 'x-user': 'alice' });
    const bob = await callTool(withAuth.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: state, headers: { 'x-user': 'bob' } });
    expectRefused(bob, 'other_principal');
    const alice = await callTool(withAuth.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: state, headers: { 'x-user': 'alice' } });
    expect(alice.body.result.content[0].text).toBe('Deleted x.txt.');
  });

  describe('after the dispatch gates: a call they refuse is answered by them, and its state is never opened', () => {
    const stray = { file: 'x.txt', stray: 1 };
    /** Expects the unknown-key gate's answer to a call carrying `stray`, and the tool never ran. */
    const expectGated = (res: { status: number; body: any }) => {
      expect(res.status).toBe(200);
      expect(res.body.result.isError).toBe(true);
      expect(JSON.parse(res.body.result.content[0].text)).toMatchObject({ error: 'unknown_params', unknown: ['stray'] });
      expect(sideEffects).toEqual([]);
    };

    it('a state sealed for the call without the stray key (its binding is never digested)', async () => {
      const state = await roundOne(a, 'x.txt');
      expectGated(await callTool(a.server, 'confirm_delete', stray, { inputResponses: CONFIRM, requestState: state }));
    });

    it.each([
      ['tampered', (state: string) => `${state}-TAMPERED`],
      ['malformed', () => 'garbage'],
    ])('a %s state', async (_problem, spoil) => {
      const state = await roundOne(a, 'x.txt');
      expectGated(await callTool(a.server, 'confirm_delete', stray, { inputResponses: CONFIRM, requestState: spoil(state) }));
    });

    it("a refused state is the caller's error in telemetry: mcp:tool:stop with errorKind dispatch", async () => {
      const state = await roundOne(a, 'x.txt');
      let res: { status: number; body: any } | undefined;
      const events = await recordEvents(['mcp:tool:start', 'mcp:tool:stop', 'mcp:tool:error'], async () => {
        res = await callTool(a.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: `${state}-TAMPERED` });
      });
      expectRefused(res!, 'tampered');
      expect(events).toEqual([
        { channel: 'mcp:tool:start', message: { mount: '/mcp', era: 'modern', tool: 'confirm_delete' } },
        {
          channel: 'mcp:tool:stop',
          message: { mount: '/mcp', era: 'modern', tool: 'confirm_delete', durationMs: expect.any(Number), isError: true, errorKind: 'dispatch' },
        },
      ]);
    });
  });

  describe('two application instances sharing a secret (no session, no sticky routing)', () => {
    it('completes a call whose round one went to instance A and round two to instance B', async () => {
      const b = await boot([OLD]);
      const state = await roundOne(a, 'shared.txt');
      const res = await callTool(b.server, 'confirm_delete', { file: 'shared.txt' }, { inputResponses: CONFIRM, requestState: state });
      expect(res.status).toBe(200);
      expect(res.body.result.content[0].text).toBe('Deleted shared.txt.');
      expect(sideEffects).toEqual(['deleted shared.txt']);
    });

    it('runs three rounds alternating A, B, A', async () => {
      const b = await boot([OLD]);
      const r1 = await callTool(a.server, 'three_rounds', {});
      const r2 = await callTool(b.server, 'three_rounds', {}, { inputResponses: { step1: accept({ name: 'Ada' }) }, requestState: r1.body.result.requestState });
      const r3 = await callTool(a.server, 'three_rounds', {}, { inputResponses: { step2: accept({ color: 'green' }) }, requestState: r2.body.result.requestState });
      expect(r3.body.result.content[0].text).toBe('Ada likes green; visits 1,2,3');
    });
  });

  describe('secret rotation: seal with the first secret, open with any', () => {
    it('opens a state sealed under the old secret once the new one is put in front', async () => {
      const rotated = await boot([NEW, OLD]);
      const state = await roundOne(a);
      const res = await callTool(rotated.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: state });
      expect(res.body.result.content[0].text).toBe('Deleted x.txt.');
    });

    it('seals under the new secret: an instance holding only the new one opens it, one holding only the old one refuses it', async () => {
      const rotated = await boot([NEW, OLD]);
      const newOnly = await boot([NEW]);
      const state = await roundOne(rotated);
      expectRefused(await callTool(a.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: state }), 'tampered');
      const res = await callTool(newOnly.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: state });
      expect(res.body.result.content[0].text).toBe('Deleted x.txt.');
    });
  });
});

describe('requestState without a configured secret', () => {
  let warn: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('warns once, when a tool first asks for input, that multi-instance deployments need a secret, and still serves round trips in-process', async () => {
    const t = await app(undefined);
    try {
      expect(warn).not.toHaveBeenCalledWith(RANDOM_SECRET_WARNING); // a quiet start: no tool has asked yet
      const state = await roundOne(t);
      await roundOne(t);
      expect(warn.mock.calls.filter((call: unknown[]) => call[0] === RANDOM_SECRET_WARNING)).toHaveLength(1);
      const res = await callTool(t.server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: CONFIRM, requestState: state });
      expect(res.body.result.content[0].text).toBe('Deleted x.txt.');
    } finally {
      await t.close();
    }
  });

  it('does not warn when secrets are configured', async () => {
    const t = await app([OLD]);
    await roundOne(t);
    await t.close();
    expect(warn).not.toHaveBeenCalledWith(RANDOM_SECRET_WARNING);
  });
});

describe('the requestState module option is checked at module init', () => {
  it.each([
    ['a short secret', { secrets: ['too-short'] }, 'is 9 bytes; a secret must be at least 32 bytes'],
    ['a repetitive secret', { secrets: ['a'.repeat(64)] }, 'is repetitive'],
    ['an empty list', { secrets: [] }, 'secrets must be a non-empty array'],
    ['more than 16 secrets', { secrets: Array.from({ length: 17 }, () => OLD) }, 'secrets holds 17; at most 16 (the current one'],
    ['a non-string secret', { secrets: [42] }, 'secrets[0] must be a string'],
    ['a zero ttl', { ttlMs: 0 }, 'ttlMs must be a positive integer'],
    ['an unknown key', { secret: OLD }, 'unknown key(s) "secret"'],
  ])('refuses %s', async (_case, requestState, text) => {
    const failure: unknown = await createTestApp({ providers: TOOLS, options: { requestState: requestState as never } }).then(
      (started) => started.close(),
      (thrown: unknown) => thrown,
    );
    expect(failure).toBeInstanceOf(McpConfigurationError);
    expect((failure as McpConfigurationError).message).toContain('option "requestState": ');
    expect((failure as McpConfigurationError).message).toContain(text);
  });
});

import { describe, expect, it } from '@jest/globals';

import { PendingInputRequests } from '../../lib/mrtr/pending-input-requests.js';
import { FINITE_NUMBER } from '../../lib/validation/finite-numbers.js';
import { DETAILED_CHECK_MAX_ERRORS } from '../../lib/validation/linear-errors.js';
import { EchoTool } from '../support/fixture-tools.js';
import { legacyHeaders, legacyPost, legacyToolCall } from '../support/legacy-client.js';
import { mirroredHeaders, post, rpc } from '../support/mcp-client.js';
import { accept, sampled, toolCall } from '../support/mrtr-client.js';
import { ConfirmDeleteTool, GatherTool, sideEffects } from '../support/mrtr-tools.js';
import { useTestApp } from '../support/suite-app.js';

/** A marker number no body sends, which the JSON text of a test body then spells as `1e400` (Infinity once parsed). */
const MARK = 987654321.5;
const withOutOfRange = (body: unknown): string => {
  const text = JSON.stringify(body).replaceAll(String(MARK), '1e400');
  expect(text).toContain('1e400');
  return text;
};

/**
 * `1e400` is a JSON number a parser cannot hold (it reads as Infinity, which `JSON.stringify` writes as null): sent
 * anywhere a schema types no number, it is refused at its location, so no handler meets Infinity. A tool's
 * arguments are the value gate's (test/e2e/tool-value-gate.e2e-spec.ts); everything else of a request is refused
 * by method routing, of a response or notification by message validation.
 */
describe('a number out of range (1e400) outside the typed fields', () => {
  const app = useTestApp({ providers: [EchoTool, GatherTool, ConfirmDeleteTool] });

  it("in a request's free `_meta` field: 400 + -32602 located, on either era", async () => {
    const modern = rpc('tools/call', { name: 'echo', arguments: { text: 'x' } });
    (modern.params as { _meta: Record<string, unknown> })._meta['example.com/weight'] = [1, { w: MARK }];
    const res = await post(app().server, withOutOfRange(modern), mirroredHeaders(modern));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32602, data: { errors: [{ location: '/params/_meta/example.com~1weight/1/w', problems: [FINITE_NUMBER] }] } });

    const legacy = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: { weight: -MARK } } };
    const old = await post(app().server, withOutOfRange(legacy), legacyHeaders());
    expect(old.body.error).toMatchObject({ code: -32602, data: { errors: [{ location: '/params/_meta/weight' }] } });
  });

  it("in a sampling answer's free field (MRTR inputResponses): 400 + -32602 located, and the tool does not run", async () => {
    const answer = { ...sampled('Hello'), usage: { inputTokens: MARK } };
    const body = toolCall('gather', {}, { inputResponses: { user_name: accept({ name: 'Ada' }), greeting: answer, client_roots: { roots: [] } } });
    const res = await post(app().server, withOutOfRange(body), mirroredHeaders(body));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.data.errors).toEqual([{ location: '/params/inputResponses/greeting/usage/inputTokens', problems: [FINITE_NUMBER] }]);
    expect(res.body.error.message).toContain('/params/inputResponses/greeting/usage/inputTokens');
  });

  it('in a notification: 400 + -32600 located', async () => {
    const note = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'r1', _meta: { at: MARK } } };
    const res = await post(app().server, withOutOfRange(note), legacyHeaders());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32600, data: { errors: [{ location: '/params/_meta/at', problems: [FINITE_NUMBER] }] } });
  });

  it("in a notification under a long key, deep: each location segment cut to 64 characters, the message's location to 200", async () => {
    const deep = Array.from({ length: 80 }).reduce<unknown>((inner) => ({ a: inner }), MARK);
    const note = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'r1', _meta: { ['k'.repeat(100)]: deep } } };
    const res = await post(app().server, withOutOfRange(note), legacyHeaders());
    const location = `/params/_meta/${'k'.repeat(63)}…${'/a'.repeat(80)}`;
    expect(res.body.error.data.errors).toEqual([{ location, problems: [FINITE_NUMBER] }]);
    expect(res.body.error.message).toBe(`Invalid request: the message holds a number out of range; at ${location.slice(0, 199)}…, ${FINITE_NUMBER}.`);
  });

  it('in a notification, past DETAILED_CHECK_MAX_ERRORS of them, or past DETAILED_CHECK_MAX_PATH_CHARS characters of their locations: the first only', async () => {
    const deep = (count: number, depth: number) => `${'{"a":'.repeat(depth)}[${Array(count).fill('1e400').join(',')}]${'}'.repeat(depth)}`;
    const noteWith = (count: number, depth: number) => `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r1","_meta":{"x":${deep(count, depth)}}}}`;
    // 20 levels down, a thousand locations spell about 59,000 characters; 100 levels down, about 219,000.
    const at = await post(app().server, noteWith(DETAILED_CHECK_MAX_ERRORS, 20), legacyHeaders());
    expect(at.body.error).toMatchObject({ code: -32600, data: { errorCount: DETAILED_CHECK_MAX_ERRORS } });
    for (const [count, depth] of [
      [DETAILED_CHECK_MAX_ERRORS + 1, 20],
      [DETAILED_CHECK_MAX_ERRORS, 100],
    ] as const) {
      const over = await post(app().server, noteWith(count, depth), legacyHeaders());
      expect(over.status).toBe(400);
      const first = `/params/_meta/x${'/a'.repeat(depth)}/0`;
      expect(over.body.error).toMatchObject({ code: -32600, data: { errorCount: 1, errors: [{ location: first, problems: [FINITE_NUMBER] }] } });
      expect(over.body.error.message).toMatch(
        /^Invalid request: the message holds a number out of range; at \/params\/_meta\/x\/a\/a.*, must be a number within ±1\.8e308 \(a larger one reads as Infinity\)\.$/,
      );
    }
  });

  it('in a legacy answer to an input request: 400 + -32600 located, the request still waits, and a proper answer resumes the tool', async () => {
    sideEffects.length = 0;
    const pending = app().app.get(PendingInputRequests);
    let answered: Promise<void> | undefined;
    const call = legacyToolCall(app().server, 'confirm_delete', { file: 'n.txt' }, (request) => {
      answered = (async () => {
        const bad = { jsonrpc: '2.0', id: request.id, result: { action: 'decline', _meta: { score: MARK } } };
        const res = await post(app().server, withOutOfRange(bad), legacyHeaders());
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: -32600, data: { errors: [{ location: '/result/_meta/score', problems: [FINITE_NUMBER] }] } });
        expect(pending.size).toBe(1);
        expect((await legacyPost(app().server, { jsonrpc: '2.0', id: request.id, result: { action: 'decline' } })).status).toBe(202);
      })();
      return 'no-answer';
    });
    const done = await call;
    await answered;
    expect(done.messages.at(-1)!.result.content[0].text).toBe('Kept n.txt (decline).');
  });

  it('not where the number is in range or underflows to 0 (finite either way)', async () => {
    const body = rpc('tools/call', { name: 'echo', arguments: { text: 'x' } });
    (body.params as { _meta: Record<string, unknown> })._meta['example.com/range'] = [1e308, -1.7976931348623157e308, MARK];
    const text = JSON.stringify(body).replace(String(MARK), '1e-400');
    const res = await post(app().server, text, mirroredHeaders(body));
    expect(res.status).toBe(200);
    expect(res.body.result.content[0].text).toBe('x');
  });
});

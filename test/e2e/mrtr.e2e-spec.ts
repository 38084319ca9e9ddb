import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';

import { McpMethodError, McpTool, type McpContext, type McpPlainTool } from '../../lib/index.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { recordEvents } from '../support/mcp-client.js';
import { accept, callTool, sampled, statePayload } from '../support/mrtr-client.js';
import { MRTR_TEST_TOOLS, sideEffects } from '../support/mrtr-tools.js';
import { useTestApp } from '../support/suite-app.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

const schema = await ProtocolSchema.vendored();
const SECRET = 'mrtr-e2e-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const ROOTS = { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] };

/** A tools/call answer, checked against the protocol schema (a complete or an input-required result). */
function expectCallToolResponse(body: unknown): void {
  expect(schema.check('CallToolResultResponse', body)).toEqual([]);
}

describe('multi round-trip requests: tools/call', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: MRTR_TEST_TOOLS, options: { requestState: { secrets: [SECRET] } } });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    sideEffects.length = 0;
  });

  describe('a tool that elicits a confirmation', () => {
    it('answers round one with an input-required result: the elicitation, a sealed requestState, no caching hints', async () => {
      const res = await callTool(t.server, 'confirm_delete', { file: 'a.txt' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectCallToolResponse(res.body);
      const result = res.body.result;
      expect(result.resultType).toBe('input_required');
      expect(result.inputRequests).toEqual({
        confirm: {
          method: 'elicitation/create',
          params: {
            message: 'Delete a.txt?',
            requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
          },
        },
      });
      expect(result.requestState).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      expect(result.ttlMs).toBeUndefined();
      expect(result.cacheScope).toBeUndefined();
      expect(result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'test-server', version: '1.0.0' });
      expect(sideEffects).toEqual([]);
    });

    it('runs the tool again on retry: an accepted confirmation completes the call and the side effect happens once', async () => {
      const first = await callTool(t.server, 'confirm_delete', { file: 'a.txt' });
      const second = await callTool(
        t.server,
        'confirm_delete',
        { file: 'a.txt' },
        {
          inputResponses: { confirm: accept({ confirm: true }) },
          requestState: first.body.result.requestState,
        },
      );
      expect(second.status).toBe(200);
      expectCallToolResponse(second.body);
      expect(second.body.id).not.toBe(first.body.id);
      expect(second.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Deleted a.txt.' }] });
      expect(sideEffects).toEqual(['deleted a.txt']);
    });

    it('hands a decline to the tool, which keeps the file', async () => {
      const first = await callTool(t.server, 'confirm_delete', { file: 'b.txt' });
      const second = await callTool(
        t.server,
        'confirm_delete',
        { file: 'b.txt' },
        {
          inputResponses: { confirm: { action: 'decline' } },
          requestState: first.body.result.requestState,
        },
      );
      expect(second.body.result.content[0].text).toBe('Kept b.txt (decline).');
      expect(sideEffects).toEqual([]);
    });

    it('does not require requestState: a retry carrying only the answer completes', async () => {
      const res = await callTool(t.server, 'confirm_delete', { file: 'c.txt' }, { inputResponses: { confirm: accept({ confirm: true }) } });
      expect(res.body.result.content[0].text).toBe('Deleted c.txt.');
    });

    it('asks again (a new input-required result, not an error) when the retry lacks the needed answer', async () => {
      const first = await callTool(t.server, 'confirm_delete', { file: 'd.txt' });
      const res = await callTool(
        t.server,
        'confirm_delete',
        { file: 'd.txt' },
        {
          inputResponses: { wrong_key: accept({ data: 'wrong' }) },
          requestState: first.body.result.requestState,
        },
      );
      expect(res.status).toBe(200);
      expect(res.body.result.resultType).toBe('input_required');
      expect(Object.keys(res.body.result.inputRequests)).toEqual(['confirm']);
    });

    it('ignores answers nobody asked for', async () => {
      const res = await callTool(
        t.server,
        'confirm_delete',
        { file: 'e.txt' },
        {
          inputResponses: { confirm: accept({ confirm: true }), unknown_extra_key: accept({ x: 1 }), another_unexpected: ROOTS },
        },
      );
      expect(res.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Deleted e.txt.' }] });
    });

    it('emits one mcp:mrtr:input_required event per input-required round, naming the kinds', async () => {
      const events = await recordEvents(['mcp:mrtr:input_required'], () => callTool(t.server, 'confirm_delete', { file: 'f.txt' }));
      expect(events.map((e) => e.message)).toEqual([{ mount: '/mcp', tool: 'confirm_delete', method: 'tools/call', kinds: ['elicitation'] }]);
    });

    it('reports an input-required round as no error: mcp:tool:stop with isError false and no errorKind', async () => {
      const events = await recordEvents(['mcp:tool:stop', 'mcp:mrtr:input_required'], () => callTool(t.server, 'confirm_delete', { file: 'g.txt' }));
      expect(events.map((e) => e.channel)).toEqual(['mcp:tool:stop', 'mcp:mrtr:input_required']);
      expect(events[0]!.message).toMatchObject({ mount: '/mcp', tool: 'confirm_delete', isError: false });
      expect(events[0]!.message).not.toHaveProperty('errorKind');
    });
  });

  describe('a tool that asks for elicitation, sampling and roots at once', () => {
    it('lists every input request of the round in one input-required result', async () => {
      const events = await recordEvents(['mcp:mrtr:input_required'], async () => {
        const res = await callTool(t.server, 'gather', {});
        expectCallToolResponse(res.body);
        expect(res.body.result.inputRequests).toEqual({
          user_name: {
            method: 'elicitation/create',
            params: { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] } },
          },
          greeting: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 50 } },
          client_roots: { method: 'roots/list', params: {} },
        });
        expect(typeof res.body.result.requestState).toBe('string');
      });
      expect(events[0]?.message.kinds).toEqual(['elicitation', 'sampling', 'roots']);
    });

    it('completes when the retry answers all three', async () => {
      const first = await callTool(t.server, 'gather', {});
      const res = await callTool(
        t.server,
        'gather',
        {},
        {
          inputResponses: { user_name: accept({ name: 'Alice' }), greeting: sampled('Hello there!'), client_roots: ROOTS },
          requestState: first.body.result.requestState,
        },
      );
      expectCallToolResponse(res.body);
      expect(res.body.result.content[0].text).toBe('Hello there! Alice; roots: file:///test/root');
    });

    it('asks again only for what is still missing, carrying the answers it got in requestState', async () => {
      const first = await callTool(t.server, 'gather', {});
      const second = await callTool(
        t.server,
        'gather',
        {},
        {
          inputResponses: { user_name: accept({ name: 'Alice' }) },
          requestState: first.body.result.requestState,
        },
      );
      expect(Object.keys(second.body.result.inputRequests)).toEqual(['greeting', 'client_roots']);
      expect(statePayload(second.body.result.requestState).a).toEqual({ user_name: accept({ name: 'Alice' }) });
      const third = await callTool(
        t.server,
        'gather',
        {},
        {
          inputResponses: { greeting: sampled('Hi!'), client_roots: ROOTS },
          requestState: second.body.result.requestState,
        },
      );
      expect(third.body.result.content[0].text).toBe('Hi! Alice; roots: file:///test/root');
    });
  });

  describe('a three-round tool whose state changes every round', () => {
    it('carries the tool state and the earlier answers across rounds, with a new requestState each round', async () => {
      const r1 = await callTool(t.server, 'three_rounds', {});
      expect(Object.keys(r1.body.result.inputRequests)).toEqual(['step1']);
      const s1 = r1.body.result.requestState as string;
      expect(statePayload(s1)).toMatchObject({ r: 1, s: { visits: [1] }, a: {} });

      const r2 = await callTool(t.server, 'three_rounds', {}, { inputResponses: { step1: accept({ name: 'Ada' }) }, requestState: s1 });
      expect(r2.body.result.resultType).toBe('input_required');
      expect(Object.keys(r2.body.result.inputRequests)).toEqual(['step2']);
      const s2 = r2.body.result.requestState as string;
      expect(s2).not.toBe(s1);
      expect(statePayload(s2)).toMatchObject({ r: 2, s: { visits: [1, 2] }, a: { step1: accept({ name: 'Ada' }) } });

      const r3 = await callTool(t.server, 'three_rounds', {}, { inputResponses: { step2: accept({ color: 'blue' }) }, requestState: s2 });
      expectCallToolResponse(r3.body);
      expect(r3.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Ada likes blue; visits 1,2,3' }] });
    });

    it('carries an answer sealed by an earlier round into every later state, through a round that gets no new answer', async () => {
      const r1 = await callTool(t.server, 'three_rounds', {});
      const r2 = await callTool(t.server, 'three_rounds', {}, { inputResponses: { step1: accept({ name: 'Ada' }) }, requestState: r1.body.result.requestState });
      const r3 = await callTool(t.server, 'three_rounds', {}, { requestState: r2.body.result.requestState });
      expect(Object.keys(r3.body.result.inputRequests)).toEqual(['step2']);
      expect(statePayload(r3.body.result.requestState)).toMatchObject({ r: 3, a: { step1: accept({ name: 'Ada' }) } });
      const r4 = await callTool(t.server, 'three_rounds', {}, { inputResponses: { step2: accept({ color: 'blue' }) }, requestState: r3.body.result.requestState });
      expect(r4.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Ada likes blue; visits 1,2,3,4' }] });
    });

    it('keeps the answer sealed by an earlier round over a different one the client sends for the same key', async () => {
      const r1 = await callTool(t.server, 'three_rounds', {});
      const r2 = await callTool(t.server, 'three_rounds', {}, { inputResponses: { step1: accept({ name: 'Ada' }) }, requestState: r1.body.result.requestState });
      const r3 = await callTool(
        t.server,
        'three_rounds',
        {},
        {
          inputResponses: { step1: accept({ name: 'Mallory' }), step2: accept({ color: 'red' }) },
          requestState: r2.body.result.requestState,
        },
      );
      expect(r3.body.result.content[0].text).toBe('Ada likes red; visits 1,2,3');
    });
  });

  it('lists a request made a few microtasks after another in the same result: a pending request rejects only after the macrotask', async () => {
    const res = await callTool(t.server, 'staggered', {});
    expectCallToolResponse(res.body);
    expect(Object.keys(res.body.result.inputRequests)).toEqual(['first', 'later']);
  });

  it('derives keys from call order per kind when the tool gives none', async () => {
    const events = await recordEvents(['mcp:mrtr:input_required'], async () => {
      const res = await callTool(t.server, 'default_keys', {});
      expect(Object.keys(res.body.result.inputRequests)).toEqual(['elicit-1', 'elicit-2', 'sample-1']);
    });
    // Each kind once in the event, though two elicitations are pending.
    expect(events.map((e) => e.message)).toMatchObject([{ kinds: ['elicitation', 'sampling'] }]);
    const done = await callTool(
      t.server,
      'default_keys',
      {},
      {
        inputResponses: { 'elicit-1': accept({ v: 'one' }), 'elicit-2': { action: 'cancel' }, 'sample-1': sampled('s') },
      },
    );
    expect(done.body.result.content[0].text).toBe(`${JSON.stringify(accept({ v: 'one' }))} | ${JSON.stringify({ action: 'cancel' })} | ${JSON.stringify(sampled('s'))}`);
  });

  it('refuses answers too large to carry to the next round with 400 + -32602, not as a fault', async () => {
    const events = await recordEvents(['mcp:method:error'], async () => {
      const res = await callTool(
        t.server,
        'default_keys',
        {},
        {
          inputResponses: { 'elicit-1': accept({ v: 'one' }), 'sample-1': sampled('x'.repeat(1_100_000)) },
        },
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: -32602,
        message: 'Invalid params: the input responses are too large to carry to the next round (the requestState would exceed 1048576 characters); send smaller answers.',
        data: { reason: 'request_state_too_large' },
      });
    });
    expect(events).toEqual([]);
  });

  it('ends the call input-required even when the tool swallows the signal and returns', async () => {
    const res = await callTool(t.server, 'swallow', {});
    expect(res.body.result.resultType).toBe('input_required');
    expect(Object.keys(res.body.result.inputRequests)).toEqual(['ok']);
  });

  it('refuses an unreadable answer even when the tool swallows the rejection and returns', async () => {
    const res = await callTool(t.server, 'swallow', {}, { inputResponses: { ok: accept({ ok: 'yes' }) } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_input_response', key: 'ok' } });
  });

  it.each([
    ['', { action: 'accept' }],
    [', though the client sent some', { action: 'accept', content: { token: 'from the client', admin: true } }],
  ])('hands an accepted URL-mode elicitation to the tool: no content%s, and no requested schema to match', async (_case, answer) => {
    const res = await callTool(t.server, 'ask', { kind: 'url' }, { capabilities: { elicitation: { url: {} } }, inputResponses: { 'elicit-1': answer } });
    expect(res.status).toBe(200);
    expectCallToolResponse(res.body);
    expect(res.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: JSON.stringify({ action: 'accept' }) }] });
  });

  it('hands an accepted form only the fields it declares, and a decline or cancel no content, whatever the client sent', async () => {
    const answered = async (answer: Record<string, unknown>) => {
      const res = await callTool(t.server, 'ask', { kind: 'form' }, { inputResponses: { 'elicit-1': answer } });
      expect(res.status).toBe(200);
      expectCallToolResponse(res.body);
      return JSON.parse(res.body.result.content[0].text) as unknown;
    };
    expect(await answered({ action: 'accept', content: { ok: true, admin: true } })).toEqual({ action: 'accept', content: { ok: true } });
    expect(await answered({ action: 'accept', content: { ok: true, constructor: 'x', toString: 'y' } })).toEqual({ action: 'accept', content: { ok: true } });
    expect(await answered({ action: 'decline', content: { ok: true } })).toEqual({ action: 'decline' });
    expect(await answered({ action: 'cancel', content: { ok: true } })).toEqual({ action: 'cancel' });
  });

  it('takes a fraction for a number field (schema.ts types form values string | number | boolean | string[]; its schema.json says integer)', async () => {
    const res = await callTool(t.server, 'ask', { kind: 'ratio' }, { inputResponses: { 'elicit-1': accept({ ratio: 0.25 }) } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.result.content[0].text)).toEqual({ action: 'accept', content: { ratio: 0.25 } });
    const outside = await callTool(t.server, 'ask', { kind: 'ratio' }, { inputResponses: { 'elicit-1': accept({ ratio: 1.5 }) } });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_input_response', key: 'elicit-1' } });
    expect(outside.body.error.message).toContain('at /params/inputResponses/elicit-1/content/ratio, must be <= 1');
  });

  describe('refuses an answer that does not parse as what was asked (-32602, 400), before the tool sees it', () => {
    it.each([
      ['inputResponses is null', null],
      ['an answer is a number', { confirm: 12345 }],
      ['an answer is no known result', { confirm: { foo: 'bar' } }],
    ])('structurally broken: %s', async (_case, inputResponses) => {
      const res = await callTool(t.server, 'confirm_delete', { file: 'g.txt' }, { inputResponses });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32602);
      expect(res.body.id).toBeDefined();
    });

    it('an answer of another kind (a sampling result where an elicitation was asked)', async () => {
      const res = await callTool(t.server, 'confirm_delete', { file: 'g.txt' }, { inputResponses: { confirm: sampled('yes') } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32602);
      expect(res.body.error.data).toMatchObject({ reason: 'invalid_input_response', key: 'confirm' });
      expect(res.body.error.message).toContain('inputResponses["confirm"] is not a valid ElicitResult');
      expect(sideEffects).toEqual([]);
    });

    it('accepted content that does not match the requested schema, located in the error', async () => {
      const res = await callTool(t.server, 'confirm_delete', { file: 'g.txt' }, { inputResponses: { confirm: accept({ confirm: 'yes' }) } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: -32602,
        data: { reason: 'invalid_input_response', key: 'confirm', errors: [{ location: '/params/inputResponses/confirm/content/confirm', problems: ['must be a boolean'] }] },
      });
      expect(res.body.error.message).toMatch(/does not match the requested schema; at \/params\/inputResponses\/confirm\/content\/confirm, must be a boolean\.$/);
      expect(sideEffects).toEqual([]);
    });

    it.each(['not base64 ###\n', 'iVBORw0K\niVBORw0K'])('a sampling answer whose image data is not base64 (%j: a line break is none)', async (data) => {
      const first = await callTool(t.server, 'gather', {});
      const image = { role: 'assistant', content: { type: 'image', data, mimeType: 'image/png' }, model: 'test-model', stopReason: 'endTurn' };
      const res = await callTool(t.server, 'gather', {}, { inputResponses: { greeting: image }, requestState: first.body.result.requestState });
      expect(res.status).toBe(400);
      // Method routing refuses it, at the data: of the protocol's results, only a sampling result has all it holds.
      expect(res.body.error).toMatchObject({
        code: -32602,
        data: { errors: [{ location: '/params/inputResponses/greeting/content/data', problems: ['must be a valid byte, such as "QUJD" (base64)'] }] },
      });
    });

    it.each([
      ['of a type no block takes', { type: 'html', text: '<b>hi</b>' }, '/content/type', 'must be one of "text", "image", "audio", "tool_use", "tool_result"'],
      ['without what its type needs', { type: 'text' }, '/content', 'missing required property "text"'],
    ])('a sampling answer whose content block is %s, named at the block', async (_case, content, at, problem) => {
      const first = await callTool(t.server, 'gather', {});
      const answer = { role: 'assistant', content, model: 'test-model', stopReason: 'endTurn' };
      const res = await callTool(t.server, 'gather', {}, { inputResponses: { greeting: answer }, requestState: first.body.result.requestState });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32602);
      expect(res.body.error.message).toBe(`Invalid params for tools/call; at /params/inputResponses/greeting${at}, ${problem}.`);
    });

    it('two unreadable answers in one execution: the refusal names the first asked, whatever the tool does with the rest', async () => {
      const res = await callTool(t.server, 'gather', {}, { inputResponses: { greeting: accept({ name: 'Ada' }), user_name: accept({ name: '' }) } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_input_response', key: 'user_name' } });
    });

    it('accepted form content that is missing (required fields fail)', async () => {
      const res = await callTool(t.server, 'confirm_delete', { file: 'g.txt' }, { inputResponses: { confirm: { action: 'accept' } } });
      expect(res.status).toBe(400);
      expect(res.body.error.data.errors[0].problems).toEqual(['missing required property "confirm"']);
    });
  });

  describe('a tool that misuses input requests is a contained fault (isError), never a crash', () => {
    it.each([
      ['an input request the protocol schema refuses', 'invalid_request', 'is not a valid ElicitRequest'],
      [
        'a form whose fields are none of MCP’s field shapes, each named with why (test/mrtr/input-request.spec.ts has the whole wording)',
        'off_shape_fields',
        'the elicitation/create request is not a valid ElicitRequest: requestedSchema: field "id" has format "uuid", none of date, date-time, email, uri; field "note" needs one "type"',
      ],
      ['the same key twice in one execution', 'duplicate_key', 'used twice in one execution'],
      ['a key outside the allowed characters', 'bad_key', 'must be 1–64 characters'],
      ['a key that is no string (a number)', 'number_key', 'must be 1–64 characters'],
      ['an explicit key a later request without one derives (elicit-1)', 'derived_key_taken', 'input-request key "elicit-1" is used twice'],
      ['a tool state over 64 KiB', 'huge_state', 'over the 65536 limit'],
      ['a requestedSchema this server cannot build (another dialect), in the round that asks', 'unbuildable_schema', 'requestedSchema cannot be built'],
      [
        'a requestedSchema whose recursion never descends into the value, in the round that asks (checking the answer would never finish)',
        'endless_schema',
        'the elicitation/create requestedSchema cannot be built: recurses without end: $ref "#" (at #/allOf/0) leads back to #',
      ],
    ])('%s', async (_case, how, text) => {
      const res = await callTool(t.server, 'misuse', { how });
      expect(res.status).toBe(200);
      expect(res.body.result.isError).toBe(true);
      const payload = JSON.parse(res.body.result.content[0].text);
      expect(payload).toMatchObject({ errorType: 'tool_fault', tool: 'misuse' });
      expect(payload.message).toContain(text);
    });
  });
});

@McpTool({ name: 'closed_form', description: 'Asks with a form closed to other fields.', inputSchema: { type: 'object', properties: {} } })
class ClosedFormTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const answer = await ctx.elicit(
      { message: 'Proceed?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false } as never },
      { key: 'proceed' },
    );
    return JSON.stringify(answer);
  }
}

@McpTool({ name: 'inherited_name_form', description: 'Asks with a form whose optional field is named constructor.', inputSchema: { type: 'object', properties: {} } })
class InheritedNameFormTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const form = { type: 'object', properties: { constructor: { type: 'string' }, ok: { type: 'boolean' } }, required: ['ok'] };
    return JSON.stringify(await ctx.elicit({ message: 'Proceed?', requestedSchema: form as never }, { key: 'proceed' }));
  }
}

describe('an accepted form answer carrying fields the form does not declare', () => {
  const app = useTestApp({ providers: [ClosedFormTool, InheritedNameFormTool] });

  it('reads a field named like an inherited member (constructor) from the answer: leaving the optional field out is accepted', async () => {
    const res = await callTool(app().server, 'inherited_name_form', {}, { inputResponses: { proceed: { action: 'accept', content: { ok: true } } } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.result.content[0].text)).toEqual({ action: 'accept', content: { ok: true } });
  });

  it('checks only the declared fields: the others are dropped unchecked (a form closed with additionalProperties: false refused each one)', async () => {
    const content = { ok: true, ...Object.fromEntries(Array.from({ length: 20_000 }, (_, k) => [`x${k}`, 'y'])) };
    const res = await callTool(app().server, 'closed_form', {}, { inputResponses: { proceed: { action: 'accept', content } } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.result.content[0].text)).toEqual({ action: 'accept', content: { ok: true } });
    const wrong = await callTool(app().server, 'closed_form', {}, { inputResponses: { proceed: { action: 'accept', content: { ok: 'yes', x: 1 } } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.data).toMatchObject({ reason: 'invalid_input_response', key: 'proceed' });
  });
});

const FORM = { message: 'ok?', requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } } };
/** What each input request made after its call was answered rejected with. */
const lateAsks: string[] = [];

@McpTool({ name: 'ask_then_refuse', description: 'Asks, then throws a method error before the answer.', inputSchema: { type: 'object', properties: {} } })
class AskThenRefuseTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext): Promise<string> {
    void ctx.elicit(FORM, { key: 'ok' });
    throw new McpMethodError(-32602, 'Invalid params: nothing to confirm.', undefined, 400);
  }
}

@McpTool({ name: 'ask_late', description: 'Asks after its call was answered.', inputSchema: { type: 'object', properties: {} } })
class AskLateTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext): string {
    setImmediate(() => ctx.elicit(FORM).catch((error: Error) => lateAsks.push(error.message)));
    return 'answered';
  }
}

@McpTool({
  name: 'state_and_ask',
  description: 'Sets a tool state, then asks under the key given.',
  inputSchema: { type: 'object', properties: { chars: { type: 'integer' }, unserializable: { type: 'boolean' }, key: { type: 'string' } } },
})
class StateAndAskTool implements McpPlainTool {
  async run(args: { chars?: number; unserializable?: boolean; key?: string }, ctx: McpContext): Promise<string> {
    if (args.chars !== undefined) ctx.state = 'x'.repeat(args.chars - 2);
    if (args.unserializable) ctx.state = () => 1;
    return JSON.stringify(await ctx.elicit(FORM, { key: args.key ?? 'ok' }));
  }
}

@McpTool({ name: 'ask_then_change', description: 'Asks, then changes the params it asked with.', inputSchema: { type: 'object', properties: {} } })
class AskThenChangeTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext): Promise<string> {
    const form = structuredClone(FORM);
    const asked = ctx.elicit(form, { key: 'ok' });
    form.message = 'changed';
    return JSON.stringify(await asked);
  }
}

@McpTool({ name: 'misuse_then_wait', description: 'Misuses two input requests, swallows both, then waits on a pending one.', inputSchema: { type: 'object', properties: {} } })
class MisuseThenWaitTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext): Promise<string> {
    await ctx.elicit(FORM, { key: 'not a key!' }).catch(() => undefined);
    await ctx.elicit({ message: 'no schema' } as never).catch(() => undefined);
    return JSON.stringify(await ctx.elicit(FORM, { key: 'ok' }));
  }
}

@McpTool({
  name: 'misuse_then_rethrow',
  description: 'Catches the input-required signal, misuses a key, then rethrows the signal.',
  inputSchema: { type: 'object', properties: {} },
})
class MisuseThenRethrowTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext): Promise<string> {
    try {
      return JSON.stringify(await ctx.elicit(FORM, { key: 'ok' }));
    } catch (signal) {
      await ctx.elicit(FORM, { key: 'not a key!' }).catch(() => undefined);
      throw signal; // as docs/mrtr.md advises: rethrow what passes containment
    }
  }
}

describe('a round at its edges: tools that throw, ask late, change what they asked, or near the state and key limits', () => {
  const app = useTestApp({ providers: [AskThenRefuseTool, AskLateTool, StateAndAskTool, AskThenChangeTool, MisuseThenWaitTool, MisuseThenRethrowTool] });

  it('answers the method error the tool threw, not an input-required result, though a request is pending', async () => {
    const res = await callTool(app().server, 'ask_then_refuse', {});
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32602, message: 'Invalid params: nothing to confirm.' });
  });

  it('rejects an input request made after the call was answered', async () => {
    const res = await callTool(app().server, 'ask_late', {});
    expect(res.body.result.content[0].text).toBe('answered');
    await until(() => lateAsks.length > 0, 'the late input request to settle');
    expect(lateAsks).toEqual([expect.stringContaining('asked after the request it belongs to was answered')]);
  });

  it('carries a tool state of exactly 64 KiB of JSON; one character more is the tool’s fault', async () => {
    const atLimit = await callTool(app().server, 'state_and_ask', { chars: 65_536 });
    expect(atLimit.body.result.resultType).toBe('input_required');
    expect(statePayload(atLimit.body.result.requestState).s).toHaveLength(65_534);
    const over = await callTool(app().server, 'state_and_ask', { chars: 65_537 });
    expect(JSON.parse(over.body.result.content[0].text)).toMatchObject({ errorType: 'tool_fault', message: expect.stringContaining('over the 65536 limit') });
  });

  it('refuses a tool state that is not a JSON value as the tool’s fault, rather than dropping it', async () => {
    const res = await callTool(app().server, 'state_and_ask', { unserializable: true });
    expect(JSON.parse(res.body.result.content[0].text)).toMatchObject({ errorType: 'tool_fault', message: expect.stringContaining('must be a JSON value') });
  });

  it.each([
    ['of 64 characters', 'k'.repeat(64), true],
    ['of one character', 'k', true],
    ['of every character allowed', 'Az09_.-', true],
    ['of 65 characters', 'k'.repeat(65), false],
    ['that is empty', '', false],
    ['with a character outside [A-Za-z0-9_.-]', 'a/b', false],
  ])('takes an explicit key %s: %s (else it is the tool’s fault)', async (_case, key, taken) => {
    const res = await callTool(app().server, 'state_and_ask', { key });
    const outcome = res.body.result.resultType === 'input_required' ? Object.keys(res.body.result.inputRequests) : JSON.parse(res.body.result.content[0].text);
    expect(outcome).toEqual(taken ? [key] : expect.objectContaining({ errorType: 'tool_fault', message: expect.stringContaining('must be 1–64 characters') }));
  });

  it('sends the input request as the tool asked it, though the tool changes its params object afterwards', async () => {
    const res = await callTool(app().server, 'ask_then_change', {});
    expect(res.body.result.inputRequests.ok.params.message).toBe('ok?');
  });

  it('reads an answer only from an own key of inputResponses (a key named like an Object member stays pending)', async () => {
    const res = await callTool(app().server, 'state_and_ask', { key: 'constructor' }, { inputResponses: { other: { action: 'cancel' } } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.result.inputRequests)).toEqual(['constructor']);
  });

  it.each([
    ['swallowed it and another request is pending', 'misuse_then_wait'],
    ['rethrew the input-required signal it had caught before the misuse', 'misuse_then_rethrow'],
  ])('answers the first misuse as a contained fault, not an input-required result, though the tool %s', async (_case, tool) => {
    const events = await recordEvents(['mcp:tool:error', 'mcp:method:error'], async () => {
      const res = await callTool(app().server, tool, {});
      expect(res.status).toBe(200);
      expect(res.body.result.isError).toBe(true);
      const payload = JSON.parse(res.body.result.content[0].text);
      expect(payload).toMatchObject({ errorType: 'tool_fault', tool, exception: 'TypeError' });
      expect(payload.message).toContain('must be 1–64 characters');
    });
    expect(events.map((e) => [e.channel, 'tool' in e.message && e.message.tool])).toEqual([['mcp:tool:error', tool]]);
  });
});

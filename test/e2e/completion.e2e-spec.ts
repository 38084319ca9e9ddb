import { describe, expect, it } from '@jest/globals';

import { McpPrompt } from '../../lib/index.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { PEOPLE, TEST_PROMPTS } from '../prompts/test-prompts.js';
import { legacyPost } from '../support/legacy-client.js';
import { post, recordEvents, rejectionOf, rpc } from '../support/mcp-client.js';
import { useTestApp } from '../support/suite-app.js';

const schema = await ProtocolSchema.vendored();

/** A completion/complete body for an argument of a prompt. */
const complete = (prompt: string, name: string, value: string, context?: Record<string, string>) =>
  rpc('completion/complete', { ref: { type: 'ref/prompt', name: prompt }, argument: { name, value }, ...(context && { context: { arguments: context } }) });

/** The same request as a legacy client sends it (no `_meta`). */
const legacyComplete = (prompt: string, name: string, value: string) => ({
  jsonrpc: '2.0',
  id: 'c',
  method: 'completion/complete',
  params: { ref: { type: 'ref/prompt', name: prompt }, argument: { name, value } },
});

describe('completion/complete', () => {
  const app = useTestApp({ providers: TEST_PROMPTS });

  /** The completion answered for one request (checked against the protocol schema). */
  async function completion(body: Record<string, unknown>) {
    const res = await post(app().server, body);
    expect(res.status).toBe(200);
    expect(schema.check('CompleteResultResponse', res.body)).toEqual([]);
    expect(res.body.result.resultType).toBe('complete');
    expect(res.body.result.ttlMs).toBeUndefined();
    return res.body.result.completion;
  }

  it("answers a prompt argument with its completer's values, their total, and hasMore false", async () => {
    expect(await completion(complete('greet', 'name', 'a'))).toEqual({ values: ['Ada', 'Alan'], total: 2, hasMore: false });
    expect(await completion(complete('greet', 'name', ''))).toEqual({ values: PEOPLE, total: 4, hasMore: false });
    expect(await completion(complete('greet', 'name', 'zz'))).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('calls a completer named by method on the prompt provider, which reaches what is injected', async () => {
    expect(await completion(complete('greet', 'style', ''))).toEqual({ values: ['casual', 'formal'], total: 2, hasMore: false });
    expect((await completion(complete('greet', 'style', 'f'))).values).toEqual(['formal']);
  });

  it('passes the other arguments already given (context.arguments) to the completer', async () => {
    expect((await completion(complete('travel', 'city', 'L', { country: 'fr' }))).values).toEqual(['Lyon', 'Lille']);
    expect((await completion(complete('travel', 'city', '', { country: 'it' }))).values).toEqual(['Rome', 'Milan']);
    expect((await completion(complete('travel', 'city', 'R'))).values).toEqual(['Rome']);
  });

  it("passes the request's context, with the prompt named", async () => {
    expect((await completion(complete('travel', 'whoami', ''))).values).toEqual(['travel:test-client']);
  });

  it('sends at most 100 values: a longer list is cut, with its total and hasMore', async () => {
    const cut = await completion(complete('travel', 'number', ''));
    expect(cut.values).toHaveLength(100);
    expect(cut.values[99]).toBe('99');
    expect(cut).toMatchObject({ total: 250, hasMore: true });
    expect(await completion(complete('travel', 'exactly', ''))).toMatchObject({ total: 100, hasMore: false });
  });

  it('completes an argument without a completer to no values (completion is served for the server, not per argument)', async () => {
    expect(await completion(complete('travel', 'notes', 'x'))).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('refuses an unknown prompt, listing the prompts, and a ref/resource no source holds (400 + -32602, unknown_ref)', async () => {
    const names = (await post(app().server, rpc('prompts/list'))).body.result.prompts.map((p: { name: string }) => p.name);
    const PROMPT_NAMES = names.join(', ');
    expect(names.length).toBeGreaterThan(1);
    const prompt = await post(app().server, complete('nope', 'x', ''));
    expect(prompt.status).toBe(400);
    expect(prompt.body.error).toEqual({
      code: -32602,
      message: `Invalid params: no prompt "nope" to complete. Prompts: ${PROMPT_NAMES}.`,
      data: { reason: 'unknown_ref', ref: { type: 'ref/prompt', name: 'nope' } },
    });
    const resource = await post(app().server, rpc('completion/complete', { ref: { type: 'ref/resource', uri: 'test://nothing/{id}' }, argument: { name: 'id', value: '' } }));
    expect(resource.status).toBe(400);
    expect(resource.body.error).toEqual({
      code: -32602,
      message: 'Invalid params: no resource or resource template "test://nothing/{id}" to complete.', // no templates to list
      data: { reason: 'unknown_ref', ref: { type: 'ref/resource', uri: 'test://nothing/{id}' } },
    });
  });

  it('bounds the ref an unknown_ref refusal names: a prompt name to 100 characters, a URI to 200', async () => {
    const prompt = await post(app().server, complete('p'.repeat(150), 'x', ''));
    expect(prompt.body.error.data.ref).toEqual({ type: 'ref/prompt', name: `${'p'.repeat(99)}…` });
    const uri = `test://${'u'.repeat(300)}`;
    const resource = await post(app().server, rpc('completion/complete', { ref: { type: 'ref/resource', uri }, argument: { name: 'id', value: '' } }));
    expect(resource.body.error.data.ref).toEqual({ type: 'ref/resource', uri: `${uri.slice(0, 199)}…` });
  });

  it('refuses an argument the prompt does not declare (400 + -32602, unknown_argument)', async () => {
    const res = await post(app().server, complete('greet', 'mood', ''));
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: -32602,
      message: 'Invalid params: prompt "greet" has no argument "mood" to complete.',
      data: { reason: 'unknown_argument', prompt: 'greet', argument: 'mood' },
    });
  });

  it('bounds an undeclared argument it refuses: to 64 characters quoted in the message and in data', async () => {
    const res = await post(app().server, complete('greet', 'm'.repeat(100), ''));
    expect(res.body.error.message).toBe(`Invalid params: prompt "greet" has no argument "${'m'.repeat(61)}…" to complete.`);
    expect(res.body.error.data.argument).toBe(`${'m'.repeat(63)}…`);
  });

  it('refuses a malformed request in method routing (an argument without value, a ref of another type)', async () => {
    for (const params of [
      { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name' } },
      { ref: { type: 'ref/tool', name: 'greet' }, argument: { name: 'name', value: '' } },
      { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: '' }, context: { arguments: { country: 1 } } },
    ]) {
      const mark = await rejectionOf(async () => {
        const res = await post(app().server, rpc('completion/complete', params));
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe(-32602);
      });
      expect(mark).toEqual({ rejecter: 'method-routing', reason: 'invalid_params' });
    }
  });

  it.each([
    ['a ref of a type no ref takes', { type: 'ref/tool', name: 'greet' }, '/params/ref/type', 'must be one of "ref/prompt", "ref/resource"'],
    ['a prompt ref without its name', { type: 'ref/prompt' }, '/params/ref', 'missing required property "name"'],
    ['a resource ref without its URI', { type: 'ref/resource', name: 'x' }, '/params/ref', 'missing required property "uri"'],
  ])('names what is wrong inside a malformed ref (%s), placing the problem in the branch its type picks', async (_what, ref, path, problem) => {
    const res = await post(app().server, rpc('completion/complete', { ref, argument: { name: 'name', value: '' } }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toBe(`Invalid params for completion/complete; at ${path}, ${problem}.`);
    const legacy = await legacyPost(app().server, { jsonrpc: '2.0', id: 2, method: 'completion/complete', params: { ref, argument: { name: 'name', value: '' } } });
    expect(legacy.messages[0]!.error.message).toBe(res.body.error.message);
  });

  it('names every property missing from the params in one problem, on both eras', async () => {
    const res = await post(app().server, rpc('completion/complete', {}));
    expect(res.body.error.message).toBe('Invalid params for completion/complete; at /params, missing required properties "argument", "ref".');
    const legacy = await legacyPost(app().server, { jsonrpc: '2.0', id: 2, method: 'completion/complete', params: {} });
    expect(legacy.messages[0]!.error.message).toBe(res.body.error.message);
  });

  it.each(['broken', 'sparse'])(
    'contains a completer that returns what is not a list of strings (%s: numbers, a sparse array): 500 + -32603, the reason on mcp:method:error',
    async (argument) => {
      let status = 0;
      const events = await recordEvents(['mcp:method:error'], async () => {
        status = (await post(app().server, complete('travel', argument, ''))).status;
      });
      expect(status).toBe(500);
      expect(events[0]!.message).toMatchObject({ method: 'completion/complete', exception: 'TypeError' });
      expect(events[0]!.message.error).toContain(`the completer of prompt "travel", argument "${argument}" must return an array of strings`);
    },
  );

  it("answers a Nest HttpException from a completer as the completion's refusal, not a fault: 400 + -32602 (200 on the legacy era)", async () => {
    const sent = { code: -32602, message: 'Invalid params: Visa data is not yours to read', data: { reason: 'http_exception', error: 'ForbiddenException', status: 403 } };
    const events = await recordEvents(['mcp:method:error'], async () => {
      const modern = await post(app().server, complete('travel', 'visa', ''));
      expect([modern.status, modern.body.error]).toEqual([400, sent]);
      const legacy = await legacyPost(app().server, legacyComplete('travel', 'visa', ''));
      expect([legacy.status, legacy.messages]).toEqual([200, [{ jsonrpc: '2.0', id: 'c', error: sent }]]);
    });
    expect(events).toEqual([]);
  });

  it('answers the legacy era in its shape: {completion} alone', async () => {
    const res = await legacyPost(app().server, legacyComplete('greet', 'name', 'g'));
    expect(res.status).toBe(200);
    expect(res.messages[0]!.result).toEqual({ completion: { values: ['Grace'], total: 1, hasMore: false } });
  });

  describe('a server whose prompts declare no completer', () => {
    @McpPrompt({ name: 'plain', description: 'No completer.', arguments: [{ name: 'topic', required: true }] })
    class PlainPrompt {
      get(args: Record<string, string>) {
        return args.topic!;
      }
    }
    const plain = useTestApp({ providers: [PlainPrompt] });

    it('advertises prompts without completions, and answers completion/complete -32601 on both eras (404 modern, 200 legacy)', async () => {
      const discovered = await post(plain().server, rpc('server/discover'));
      expect(discovered.body.result.capabilities.prompts).toBeDefined();
      expect(discovered.body.result.capabilities.completions).toBeUndefined();
      const modern = await post(plain().server, complete('plain', 'topic', ''));
      expect(modern.status).toBe(404);
      expect(modern.body.error.code).toBe(-32601);
      const legacy = await legacyPost(plain().server, legacyComplete('plain', 'topic', ''));
      expect(legacy.status).toBe(200);
      expect(legacy.messages[0]!.error.code).toBe(-32601);
    });
  });
});

import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { beforeEach, describe, expect, it } from '@jest/globals';
import { NotFoundException } from '@nestjs/common';

import { McpPrompt, META_KEYS, type McpContext, type McpPromptHandler } from '../../lib/index.js';
import { PromptRegistry } from '../../lib/prompts/prompt.registry.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { GreetPrompt, PNG, promptRuns, Salutations, TEST_PROMPTS, WAV } from '../prompts/test-prompts.js';
import { EchoTool } from '../support/fixture-tools.js';
import { legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { meta, mirroredHeaders, post, recordEvents, rejectionOf, rpc } from '../support/mcp-client.js';
import { accept, ALL_INPUT_CAPABILITIES, statePayload } from '../support/mrtr-client.js';
import { sseMessages } from '../support/sse.js';
import { useTestApp } from '../support/suite-app.js';
import { until } from '../support/wait.js';

const schema = await ProtocolSchema.vendored();
const SECRET = 'prompts-e2e-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

/** A prompts/get body, declaring every input kind unless `capabilities` says otherwise. */
function promptGet(name: string, args?: Record<string, unknown>, extra: Record<string, unknown> = {}, capabilities: Record<string, unknown> = ALL_INPUT_CAPABILITIES) {
  return rpc('prompts/get', { _meta: meta({ [META_KEYS.clientCapabilities]: capabilities }), name, ...(args !== undefined && { arguments: args }), ...extra });
}

/** The messages a prompts/get answers with (a complete result, checked against the protocol schema). */
async function messagesOf(server: Server, name: string, args?: Record<string, unknown>) {
  const res = await post(server, promptGet(name, args));
  expect(res.status).toBe(200);
  expect(schema.check('GetPromptResultResponse', res.body)).toEqual([]);
  return res.body.result;
}

/**
 * A legacy prompts/get whose input requests arrive on its SSE stream: each is answered by POSTing `answer(request)`
 * back as the JSON-RPC result; resolves with every message of the stream and the status of each answer POST.
 */
async function legacyPromptGet(server: Server, params: Record<string, unknown>, answer: (request: Record<string, any>) => unknown) {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const res = await fetch(url, { method: 'POST', headers: legacyHeaders(), body: JSON.stringify({ jsonrpc: '2.0', id: 'get', method: 'prompts/get', params }) });
  const statuses: number[] = [];
  const answered = new Set<unknown>();
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    for (const message of sseMessages(text.slice(0, text.lastIndexOf('\n\n') + 2)) as Record<string, any>[]) {
      if (typeof message.method !== 'string' || message.id === undefined || answered.has(message.id)) continue;
      answered.add(message.id);
      statuses.push((await legacyPost(server, { jsonrpc: '2.0', id: message.id, result: answer(message) })).status);
    }
  }
  return { messages: sseMessages(text) as Record<string, any>[], statuses };
}

/** A prompt whose service refuses with Nest's HttpException, as a Nest developer writes one. */
@McpPrompt({ name: 'customer_letter', description: 'Writes to a customer.', arguments: [{ name: 'id', required: true }] })
class CustomerLetterPrompt implements McpPromptHandler {
  get(args: { id: string }): never {
    throw new NotFoundException(`Customer ${args.id} not found`);
  }
}

describe('a Nest HttpException from get()', () => {
  const app = useTestApp({ providers: [CustomerLetterPrompt] });

  it("is the prompt's refusal, not a fault: 400 + -32602 (200 on the legacy era), no fault event", async () => {
    const sent = {
      code: -32602,
      message: 'Invalid params: Customer 7 not found',
      data: { reason: 'http_exception', error: 'NotFoundException', status: 404, prompt: 'customer_letter' },
    };
    const events = await recordEvents(['mcp:method:error'], async () => {
      const modern = await post(app().server, promptGet('customer_letter', { id: '7' }));
      expect([modern.status, modern.body.error]).toEqual([400, sent]);
      const legacy = await legacyPost(app().server, { jsonrpc: '2.0', id: 'n', method: 'prompts/get', params: { name: 'customer_letter', arguments: { id: '7' } } });
      expect([legacy.status, legacy.messages]).toEqual([200, [{ jsonrpc: '2.0', id: 'n', error: sent }]]);
    });
    expect(events).toEqual([]);
  });
});

/** Catches the input-required signal, misuses an input key, then rethrows the signal. */
@McpPrompt({ name: 'misuse_then_rethrow', description: 'Misuses an input request after the signal.' })
class MisuseThenRethrowPrompt implements McpPromptHandler {
  async get(_args: Record<string, string>, ctx: McpContext): Promise<string> {
    const form = { message: 'Topic?', requestedSchema: { type: 'object' as const, properties: { topic: { type: 'string' as const } } } };
    try {
      return JSON.stringify(await ctx.elicit(form, { key: 'topic' }));
    } catch (signal) {
      await ctx.elicit(form, { key: 'not a key!' }).catch(() => undefined);
      throw signal;
    }
  }
}

describe('a get() that rethrows the input-required signal after misusing an input request', () => {
  const app = useTestApp({ providers: [MisuseThenRethrowPrompt] });

  it('is a fault (500 + -32603), the misuse named on mcp:method:error, not the signal', async () => {
    const events = await recordEvents(['mcp:method:error'], async () => {
      const res = await post(app().server, promptGet('misuse_then_rethrow'));
      expect([res.status, res.body.error]).toEqual([500, { code: -32603, message: 'Internal error while handling prompts/get.' }]);
    });
    expect(events.map((e) => [e.message.exception, e.message.error])).toEqual([['TypeError', expect.stringContaining('must be 1–64 characters')]]);
  });
});

/** Fails once its client has left: waits for its call's signal to abort, then throws. */
@McpPrompt({ name: 'fails_after_leaving', description: 'Fails once its client left.' })
class FailsAfterLeavingPrompt implements McpPromptHandler {
  static started = false;
  static failed = false;
  async get(_args: Record<string, string>, ctx: McpContext): Promise<string> {
    FailsAfterLeavingPrompt.started = true;
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    FailsAfterLeavingPrompt.failed = true;
    throw new Error('failed after its client left');
  }
}

describe('a get() that fails after its client left', () => {
  const app = useTestApp({ providers: [FailsAfterLeavingPrompt] });

  it("is the cancellation's (mcp:request:cancelled), no mcp:method:error: no client fills the error log by hanging up", async () => {
    const body = promptGet('fails_after_leaving');
    const events = await recordEvents(['mcp:method:error', 'mcp:request:cancelled'], async () => {
      const port = (app().server.address() as AddressInfo).port;
      const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: mirroredHeaders(body) });
      req.on('error', () => undefined);
      req.end(JSON.stringify(body));
      await until(() => FailsAfterLeavingPrompt.started, 'the prompt to start');
      req.destroy();
      await until(() => FailsAfterLeavingPrompt.failed, 'the prompt to fail');
      await new Promise((resolve) => setTimeout(resolve, 50)); // its fault reaches the exception filter now
    });
    expect(events.map((e) => e.channel)).toEqual(['mcp:request:cancelled']);
    expect(events[0]!.message).toEqual({ mount: '/mcp', method: 'prompts/get', id: body.id, by: 'close' });
  });
});

describe('a mount serving prompts only', () => {
  const app = useTestApp({ providers: [CustomerLetterPrompt] });

  it('advertises prompts, and logging since a get() may log', async () => {
    const discovered = await post(app().server, rpc('server/discover'));
    expect(discovered.body.result.capabilities).toEqual({ prompts: { listChanged: true }, logging: {} });
  });
});

/** A prompt whose one argument is named like an Object.prototype member. */
@McpPrompt({ name: 'build', description: 'Builds from a constructor name.', arguments: [{ name: 'constructor', required: true }] })
class BuildPrompt implements McpPromptHandler {
  get(args: Record<string, string>) {
    return `Build ${args.constructor}.`;
  }
}

describe('a prompt without completers declared after one with them, its argument named constructor', () => {
  const app = useTestApp({ providers: [Salutations, GreetPrompt, BuildPrompt] });

  it('keeps completions advertised: one prompt with a completer is enough, whatever comes after it', async () => {
    const discovered = await post(app().server, rpc('server/discover'));
    expect(discovered.body.result.capabilities.completions).toEqual({});
  });

  it('refuses the call without the argument: an inherited member of an object is no argument given', async () => {
    const none = await post(app().server, promptGet('build'));
    expect(none.status).toBe(400);
    expect(none.body.error.data).toEqual({ reason: 'missing_arguments', prompt: 'build', missing: ['constructor'] });
    const given = await post(app().server, promptGet('build', { constructor: 'Bridge' }));
    expect(given.body.result.messages[0].content.text).toBe('Build Bridge.');
  });
});

describe('prompts', () => {
  const app = useTestApp({ providers: [EchoTool, ...TEST_PROMPTS], options: { requestState: { secrets: [SECRET] } } });

  it('advertises prompts and completions beside tools in server/discover and initialize', async () => {
    const discovered = await post(app().server, rpc('server/discover'));
    expect(discovered.body.result.capabilities).toMatchObject({ tools: {}, prompts: {}, completions: {} });
    expect(discovered.body.result.capabilities.completions).toEqual({});
    const initialized = await legacyPost(
      app().server,
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      legacyHeaders(null),
    );
    expect(initialized.messages[0]!.result.capabilities).toMatchObject({ prompts: {}, completions: {} });
  });

  describe('prompts/list', () => {
    it('lists every prompt by name, as declared (completers left out), with caching hints', async () => {
      const res = await post(app().server, rpc('prompts/list'));
      expect(res.status).toBe(200);
      expect(schema.check('ListPromptsResultResponse', res.body)).toEqual([]);
      const { prompts, ttlMs, cacheScope, nextCursor, resultType } = res.body.result;
      expect(prompts.map((p: { name: string }) => p.name)).toEqual(['confirm_topic', 'contents', 'greet', 'malformed', 'throws', 'travel']);
      expect(prompts[2]).toEqual({
        name: 'greet',
        title: 'Greeting',
        description: 'Greets someone.',
        arguments: [
          { name: 'name', title: 'Name', description: 'Who to greet', required: true },
          { name: 'style', description: 'formal or casual' },
        ],
        icons: [{ src: 'https://example.com/greet.png', mimeType: 'image/png', sizes: ['48x48'] }],
      });
      expect(prompts[4]).toEqual({ name: 'throws', description: 'Faults.' });
      expect({ resultType, ttlMs, cacheScope, nextCursor }).toEqual({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', nextCursor: undefined });
    });

    it('answers the legacy era without resultType or caching hints', async () => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 'l', method: 'prompts/list', params: {} });
      expect(Object.keys(res.messages[0]!.result)).toEqual(['prompts']);
      expect(res.messages[0]!.result.prompts).toHaveLength(6);
    });
  });

  describe('prompts/list pagination', () => {
    const paged = useTestApp({ providers: TEST_PROMPTS, options: { pageSize: 4 } });
    const halves = useTestApp({ providers: TEST_PROMPTS, options: { pageSize: 3 } });

    it('names no next page after a page that ends exactly at the end of the list', async () => {
      const first = await post(halves().server, rpc('prompts/list'));
      expect(first.body.result.prompts).toHaveLength(3);
      const second = await post(halves().server, rpc('prompts/list', { cursor: first.body.result.nextCursor }));
      expect(second.body.result.prompts.map((p: { name: string }) => p.name)).toEqual(['malformed', 'throws', 'travel']);
      expect(second.body.result).not.toHaveProperty('nextCursor');
    });

    it('pages in name order, each page naming the next by a cursor, the last naming none', async () => {
      const first = await post(paged().server, rpc('prompts/list'));
      expect(first.body.result.prompts.map((p: { name: string }) => p.name)).toEqual(['confirm_topic', 'contents', 'greet', 'malformed']);
      expect(typeof first.body.result.nextCursor).toBe('string');
      const second = await post(paged().server, rpc('prompts/list', { cursor: first.body.result.nextCursor }));
      expect(second.body.result.prompts.map((p: { name: string }) => p.name)).toEqual(['throws', 'travel']);
      expect(second.body.result.nextCursor).toBeUndefined();
      expect(second.body.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    });

    it("refuses a cursor this server did not issue for prompts/list (400 + -32602, invalid_cursor), another list's included", async () => {
      for (const cursor of ['nope', '']) {
        const res = await post(paged().server, rpc('prompts/list', { cursor }));
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_cursor' } });
      }
    });

    it('pages on the legacy era too', async () => {
      const res = await legacyPost(paged().server, { jsonrpc: '2.0', id: 'l', method: 'prompts/list', params: {} });
      expect(res.messages[0]!.result.prompts).toHaveLength(4);
      expect(typeof res.messages[0]!.result.nextCursor).toBe('string');
    });
  });

  describe('prompts/get: what get() returns', () => {
    it('a string: one user text message; get() runs with its dependencies injected and ctx.prompt set', async () => {
      const result = await messagesOf(app().server, 'greet', { name: 'Ada', style: 'formal' });
      expect(result.resultType).toBe('complete');
      expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Good day, Ada! (prompt greet)' } }]);
      expect(result.ttlMs).toBeUndefined();
      expect(result.cacheScope).toBeUndefined();
      expect(result._meta[META_KEYS.serverInfo]).toEqual({ name: 'test-server', version: '1.0.0' });
      expect(app().app.get(Salutations).formal).toBe('Good day');
    });

    it.each([
      ['image', [{ role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } }]],
      ['audio', [{ role: 'assistant', content: { type: 'audio', data: WAV, mimeType: 'audio/wav' } }]],
      ['resource', [{ role: 'user', content: { type: 'resource', resource: { uri: 'test://notes/1', mimeType: 'text/plain', text: 'Note one.' } } }]],
      ['blob', [{ role: 'user', content: { type: 'resource', resource: { uri: 'test://logo', mimeType: 'image/png', blob: PNG } } }]],
      ['link', [{ role: 'user', content: { type: 'resource_link', uri: 'test://notes/2', name: 'note-2' } }]],
      ['message', [{ role: 'assistant', content: { type: 'text', text: 'one message' } }]],
      ['text', [{ role: 'user', content: { type: 'text', text: 'plain text' } }]],
    ])('%s content, sent as written', async (kind, messages) => {
      const result = await messagesOf(app().server, 'contents', { kind });
      expect(result.messages).toEqual(messages);
      expect(result.description).toBeUndefined();
    });

    it("{messages, _meta}: its _meta sent, beside the server's own", async () => {
      const result = await messagesOf(app().server, 'contents', { kind: 'meta' });
      expect(result).toMatchObject({ resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: 'with meta' } }], _meta: { source: 'test' } });
    });

    it('{description, messages}: both sent', async () => {
      const result = await messagesOf(app().server, 'contents', { kind: 'described' });
      expect(result).toMatchObject({ resultType: 'complete', description: 'A described prompt', messages: [{ role: 'user', content: { type: 'text', text: 'described' } }] });
    });

    it.each([
      ['role', 'messages[0].role: must be one of "assistant", "user"'],
      ['huge', `returned 1${'0'.repeat(58)}…; get() returns`],
      ['contentless', "returned { role: 'user', text: 'x' }; get() returns a string, a message {role, content}, a list of messages or {description?, messages}"],
      ['number', 'returned 42; get() returns a string, a message {role, content}, a list of messages or {description?, messages}'],
      ['extra', 'returned a result with unknown key(s) "resultType"'],
      ['image', 'messages[0].content: missing required property "mimeType"'],
      ['bigint', 'returned messages JSON cannot carry: TypeError: Do not know how to serialize a BigInt'],
      ['observable', 'prompt "malformed" returned an Observable, which is never subscribed to: return a Promise instead (lastValueFrom(observable) from rxjs, say)'],
      ['map', 'prompt "malformed" returned a Map, which JSON cannot carry (it would be sent as {}): convert it first (Object.fromEntries(map), say)'],
      ['set', 'prompt "malformed" returned a Set, which JSON cannot carry (it would be sent as {}): convert it first (Array.from(set), say)'],
    ])('a malformed return (%s) is a fault: 500 + -32603 naming only the method, the reason on mcp:method:error', async (what, reason) => {
      let res: Awaited<ReturnType<typeof post>> | undefined;
      const events = await recordEvents(['mcp:method:error'], async () => {
        res = await post(app().server, promptGet('malformed', { what }));
      });
      expect(res!.status).toBe(500);
      expect(res!.body.error).toEqual({ code: -32603, message: 'Internal error while handling prompts/get.' });
      expect(events).toHaveLength(1);
      expect(events[0]!.message).toMatchObject({ method: 'prompts/get', exception: 'MalformedPromptResultError' });
      expect(events[0]!.message.error).toContain(reason);
      expect(events[0]!.message.error.match(/MalformedPromptResultError/g)).toHaveLength(1); // not wrapped in another
    });

    it('contains a fault in get() (500 + -32603), never quoting it', async () => {
      const res = await post(app().server, promptGet('throws'));
      expect(res.status).toBe(500);
      expect(res.body.error).toEqual({ code: -32603, message: 'Internal error while handling prompts/get.' });
      expect(JSON.stringify(res.body)).not.toContain('backend');
    });

    it('contains it on the legacy era with 200 + -32603, the status a legacy client reads an error from', async () => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 'f', method: 'prompts/get', params: { name: 'throws' } });
      expect(res.status).toBe(200);
      expect(res.messages).toEqual([{ jsonrpc: '2.0', id: 'f', error: { code: -32603, message: 'Internal error while handling prompts/get.' } }]);
    });
  });

  describe('prompts/get: refusals (400 + -32602)', () => {
    it('an unknown prompt, named, with the prompts there are', async () => {
      const res = await post(app().server, promptGet('nope'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: {
          code: -32602,
          message: 'Invalid params: unknown prompt "nope". Valid prompts: confirm_topic, contents, greet, malformed, throws, travel.',
          data: { reason: 'unknown_prompt', prompt: 'nope', available: ['confirm_topic', 'contents', 'greet', 'malformed', 'throws', 'travel'], availableCount: 6 },
        },
      });
    });

    it('a missing required argument, naming each one missing (absent arguments read as none)', async () => {
      const none = await post(app().server, promptGet('travel'));
      expect(none.status).toBe(400);
      expect(none.body.error).toEqual({
        code: -32602,
        message: 'Invalid params: prompt "travel" needs arguments "country", "city".',
        data: { reason: 'missing_arguments', prompt: 'travel', missing: ['country', 'city'] },
      });
      const one = await post(app().server, promptGet('travel', { country: 'fr', notes: '' }));
      expect(one.body.error.message).toBe('Invalid params: prompt "travel" needs argument "city".');
      expect(one.body.error.data.missing).toEqual(['city']);
      const empty = await post(app().server, promptGet('greet', { name: '' })); // an empty value is given, not missing
      expect(empty.status).toBe(200);
      expect(empty.body.result.messages).toEqual(expect.any(Array));
    });

    it('an argument the prompt does not declare, naming it and those it takes', async () => {
      const res = await post(app().server, promptGet('greet', { name: 'Ada', mood: 'happy' }));
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: -32602,
        message: 'Invalid params: prompt "greet" takes no argument "mood"; it takes "name", "style".',
        data: { reason: 'unknown_arguments', prompt: 'greet', unknown: ['mood'], arguments: ['name', 'style'] },
      });
      const none = await post(app().server, promptGet('throws', { x: '1' }));
      expect(none.body.error.message).toBe('Invalid params: prompt "throws" takes no argument "x".');
    });

    it('many undeclared arguments: the message and data name the first ten, the message counts them all', async () => {
      const unknown = Array.from({ length: 12 }, (_, i) => `extra${String(i).padStart(2, '0')}`);
      const res = await post(app().server, promptGet('greet', { name: 'Ada', ...Object.fromEntries(unknown.map((key) => [key, ''])) }));
      expect(res.body.error.message).toBe(
        `Invalid params: prompt "greet" takes no argument ${unknown
          .slice(0, 10)
          .map((key) => `"${key}"`)
          .join(', ')}, … (12 in all); it takes "name", "style".`,
      );
      expect(res.body.error.data.unknown).toEqual(unknown.slice(0, 10));
    });

    it('a long undeclared argument name, quoted to 64 characters in the message and bounded to 64 in data', async () => {
      const res = await post(app().server, promptGet('throws', { ['x'.repeat(100)]: '1' }));
      expect(res.body.error.message).toBe(`Invalid params: prompt "throws" takes no argument "${'x'.repeat(61)}…".`);
      expect(res.body.error.data.unknown).toEqual([`${'x'.repeat(63)}…`]);
    });

    it.each([
      ['a number', { name: 42 }],
      ['null', { name: null }],
      ['an object', { name: { first: 'Ada' } }],
    ])('an argument value that is %s, refused by method routing before any prompt runs', async (_what, args) => {
      let res: Awaited<ReturnType<typeof post>> | undefined;
      const mark = await rejectionOf(async () => {
        res = await post(app().server, promptGet('greet', args));
      });
      expect(res!.status).toBe(400);
      expect(res!.body.error).toMatchObject({ code: -32602, data: { errors: [{ location: '/params/arguments/name', problems: ['must be a string'] }] } });
      expect(mark).toEqual({ rejecter: 'method-routing', reason: 'invalid_params' });
    });

    it('a Mcp-Name header that differs from the prompt name (-32020), as for tools', async () => {
      const res = await post(app().server, promptGet('greet', { name: 'Ada' }), { 'mcp-name': 'travel' });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32020);
    });

    it('answers the legacy era with the same refusals, sent with 200 as a legacy client reads errors', async () => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 'l', method: 'prompts/get', params: { name: 'travel', arguments: { country: 'fr' } } });
      expect(res.status).toBe(200);
      expect(res.messages[0]!.error).toMatchObject({ code: -32602, data: { reason: 'missing_arguments', missing: ['city'] } });
    });
  });

  describe('prompts/get: input requests on the modern era (MRTR)', () => {
    beforeEach(() => {
      promptRuns.length = 0;
    });

    it('answers input_required with the elicitation and a sealed state, then completes on the retry with the answer', async () => {
      const first = await post(app().server, promptGet('confirm_topic', { audience: 'kids' }));
      expect(first.status).toBe(200);
      expect(schema.check('GetPromptResultResponse', first.body)).toEqual([]);
      const round1 = first.body.result;
      expect(round1).toMatchObject({
        resultType: 'input_required',
        inputRequests: {
          topic: {
            method: 'elicitation/create',
            params: { message: 'Which topic?', requestedSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] } },
          },
        },
      });
      expect(statePayload(round1.requestState)).toMatchObject({ r: 1 });
      const second = await post(
        app().server,
        promptGet('confirm_topic', { audience: 'kids' }, { inputResponses: { topic: accept({ topic: 'owls' }) }, requestState: round1.requestState }),
      );
      expect(second.status).toBe(200);
      expect(schema.check('GetPromptResultResponse', second.body)).toEqual([]);
      expect(second.body.result).toMatchObject({ resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: 'Write about owls for kids.' } }] });
      expect(second.body.result.requestState).toBeUndefined();
      expect(promptRuns).toEqual(['run:kids', 'run:kids']);
    });

    it('completes without requestState when the answer comes in inputResponses alone', async () => {
      const res = await post(app().server, promptGet('confirm_topic', undefined, { inputResponses: { topic: { action: 'decline' } } }));
      expect(res.body.result).toMatchObject({ resultType: 'complete', messages: [{ content: { text: 'No topic (decline).' } }] });
    });

    it('refuses a state sealed for other arguments of the prompt (other_call), before get() runs', async () => {
      const first = await post(app().server, promptGet('confirm_topic', { audience: 'kids' }));
      promptRuns.length = 0;
      const res = await post(
        app().server,
        promptGet('confirm_topic', { audience: 'adults' }, { inputResponses: { topic: accept({ topic: 'x' }) }, requestState: first.body.result.requestState }),
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state', problem: 'other_call' } });
      expect(promptRuns).toEqual([]);
    });

    it('answers -32021 when the request declares no elicitation capability', async () => {
      const res = await post(app().server, promptGet('confirm_topic', {}, {}, {}));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    });
  });

  describe('prompts/get on the legacy era', () => {
    it('answers a GetPromptResult without resultType', async () => {
      const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 'l', method: 'prompts/get', params: { name: 'contents', arguments: { kind: 'described' } } });
      expect(res.status).toBe(200);
      expect(res.messages[0]!.result).toEqual({ description: 'A described prompt', messages: [{ role: 'user', content: { type: 'text', text: 'described' } }] });
    });

    it('sends the input request on the stream, takes the answer (202) and resumes get(), which runs once', async () => {
      promptRuns.length = 0;
      const got = await legacyPromptGet(app().server, { name: 'confirm_topic', arguments: { audience: 'cats' } }, () => accept({ topic: 'mice' }));
      expect(got.messages[0]).toMatchObject({ jsonrpc: '2.0', id: expect.stringMatching(/^mcp-input-/), method: 'elicitation/create', params: { message: 'Which topic?' } });
      expect(got.statuses).toEqual([202]);
      expect(got.messages.at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 'get',
        result: { messages: [{ role: 'user', content: { type: 'text', text: 'Write about mice for cats.' } }] },
      });
      expect(promptRuns).toEqual(['run:cats']);
    });
  });

  describe('without prompts', () => {
    const bare = useTestApp({ providers: [EchoTool] });

    it('advertises neither prompts nor completions, and answers prompts/* and completion/complete 404 + -32601 naming the missing capability', async () => {
      const discovered = await post(bare().server, rpc('server/discover'));
      expect(Object.keys(discovered.body.result.capabilities).sort()).toEqual(['logging', 'tools']);
      for (const [body, capability] of [
        [rpc('prompts/list'), 'prompts'],
        [promptGet('greet'), 'prompts'],
        [rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: '' } }), 'completions'],
      ] as const) {
        const res = await post(bare().server, body);
        expect(res.status).toBe(404);
        expect(res.body.error).toEqual({
          code: -32601,
          message: `Method not found: "${body.method}" is not served by this server (it advertises no "${capability}" capability).`,
        });
      }
      expect(bare().app.get(PromptRegistry).size).toBe(0);
    });
  });

  describe('a prompt given as a value provider', () => {
    @McpPrompt({ name: 'valued', description: 'Provided by value.' })
    class ValuedPrompt {
      get() {
        return 'by value';
      }
    }
    const instance = new ValuedPrompt();
    const valued = useTestApp({
      providers: [
        { provide: 'VALUED', useValue: instance },
        { provide: 'VALUED_TOO', useValue: instance },
        Salutations,
        { provide: 'ALIAS', useExisting: Salutations },
        GreetPrompt,
      ],
    });

    it('is wired in once, read from its instance, however many value providers hold it', async () => {
      const res = await post(valued().server, rpc('prompts/list'));
      expect(res.body.result.prompts.map((p: { name: string }) => p.name)).toEqual(['greet', 'valued']);
      expect((await messagesOf(valued().server, 'valued')).messages[0].content.text).toBe('by value');
    });
  });
});

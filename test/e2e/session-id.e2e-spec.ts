import { describe, expect, it } from '@jest/globals';

import { LEGACY_PROTOCOL_VERSIONS } from '../../lib/index.js';
import { INPUT_CAPABILITY_CASES } from '../support/input-capability-cases.js';
import { initialize, legacyHeaders, legacyPost, legacyToolCall, type Reply } from '../support/legacy-client.js';
import { AdaptiveTool, AskTool } from '../support/mrtr-tools.js';
import { rawRequest } from '../support/raw-http.js';
import { useTestApp } from '../support/suite-app.js';

/** A valid answer to each input request a legacy client may be sent. */
const ANSWERS: Record<string, Reply> = {
  'elicitation/create': { result: { action: 'decline' } },
  'sampling/createMessage': { result: { role: 'assistant', content: { type: 'text', text: 'yes' }, model: 'm' } },
  'roots/list': { result: { roots: [] } },
};
const answer = (request: Record<string, any>) => ANSWERS[request.method as string]!;

/** Headers of a legacy request after `initialize`: the revision header as given (null: none), and the session id. */
const withSession = (session: string, version: string | null = '2025-11-25') => legacyHeaders(version, { 'mcp-session-id': session });

/** The input requests a call's stream carried (server-to-client requests). */
const asked = (messages: Record<string, any>[]) => messages.filter((m) => typeof m.method === 'string' && m.id !== undefined).map((m) => m.method);

describe('the session id a legacy initialize issues (Mcp-Session-Id), which the server keeps nothing of', () => {
  const app = useTestApp({ providers: [AskTool, AdaptiveTool] });

  /** Initializes as a client declaring `capabilities` at `version`; the session id it was given. */
  async function sessionOf(capabilities: Record<string, unknown>, version = '2025-11-25'): Promise<string> {
    const res = await legacyPost(app().server, initialize(version, capabilities), legacyHeaders(null));
    expect(res.messages[0]!.result.protocolVersion).toBe(version);
    return res.headers.get('mcp-session-id')!;
  }

  it.each(LEGACY_PROTOCOL_VERSIONS)('is issued by initialize at %s: visible ASCII, a different one each time', async (version) => {
    const [a, b] = [await sessionOf({}, version), await sessionOf({}, version)];
    expect(a).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]+$/);
    expect(b).not.toBe(a);
  });

  describe.each(INPUT_CAPABILITY_CASES)('%s', (_name, kind, without, required, enough, [, method]) => {
    it(`is refused at once with -32021 (${JSON.stringify(required)}) when initialize did not declare it, never sent`, async () => {
      const call = await legacyToolCall(app().server, 'ask', { kind }, answer, { headers: withSession(await sessionOf(without)) });
      expect(asked(call.messages)).toEqual([]);
      const needs = kind === 'url' ? 'URL-mode elicitation' : Object.keys(required)[0];
      expect(call.messages.at(-1)!.error).toEqual({
        code: -32021,
        message: `Missing required client capability: this request needs ${needs}, which the client did not declare in initialize.`,
        data: { requiredCapabilities: required },
      });
    });

    it(`is sent as ${method} when initialize declared it`, async () => {
      const call = await legacyToolCall(app().server, 'ask', { kind }, answer, { headers: withSession(await sessionOf(enough)) });
      expect(asked(call.messages)).toEqual([method]);
      expect(call.answerStatuses).toEqual([202]);
      expect(call.messages.at(-1)!.result).toBeDefined();
    });
  });

  it.each(['2025-06-18', '2024-11-05'])(
    'sends a %s client that declared sampling a request with includeContext: sampling.context came with 2025-11-25, before which the field was plain',
    async (version) => {
      const call = await legacyToolCall(app().server, 'ask', { kind: 'sampling_context' }, answer, {
        headers: withSession(await sessionOf({ sampling: {} }, version), version),
      });
      expect(asked(call.messages)).toEqual(['sampling/createMessage']);
    },
  );

  it.each([
    ['tools', 'sampling_tools'],
    ['a tool choice', 'sampling_tool_choice'],
  ])(
    'refuses a 2025-06-18 client sampling with %s at once (-32021 naming 2025-11-25, which brought them, and sampling.tools, not the sampling it declared), never sent',
    async (_case, kind) => {
      const call = await legacyToolCall(app().server, 'ask', { kind }, answer, {
        headers: withSession(await sessionOf({ sampling: {} }, '2025-06-18'), '2025-06-18'),
      });
      expect(asked(call.messages)).toEqual([]);
      expect(call.messages.at(-1)!.error).toMatchObject({
        code: -32021,
        message: expect.stringContaining('which protocol version 2025-06-18 does not have (it came with 2025-11-25)'),
      });
      expect(call.messages.at(-1)!.error.data).toEqual({ requiredCapabilities: { sampling: { tools: {} } } });
    },
  );

  it('gives a tool the input capabilities initialize declared (ctx.clientCapabilities), so it can ask only for those', async () => {
    const session = await sessionOf({ sampling: {}, experimental: { big: 'x'.repeat(100) } });
    const call = await legacyToolCall(app().server, 'adaptive', {}, answer, { headers: withSession(session) });
    expect(asked(call.messages)).toEqual(['sampling/createMessage']);
    expect(session.length).toBeLessThan(200); // only the input capabilities travel
  });

  it('serves a request that sends no MCP-Protocol-Version under the revision initialize negotiated (not 2025-03-26)', async () => {
    const session = await sessionOf({ elicitation: {} }, '2025-06-18');
    const call = await legacyToolCall(app().server, 'ask', { kind: 'form' }, answer, { headers: withSession(session, null) });
    expect(asked(call.messages)).toEqual(['elicitation/create']);
  });

  it('takes the MCP-Protocol-Version header over the revision the session carries', async () => {
    const session = await sessionOf({ elicitation: { form: {}, url: {} } });
    const call = await legacyToolCall(app().server, 'ask', { kind: 'url' }, answer, { headers: withSession(session, '2025-06-18') });
    expect(call.messages.at(-1)!.error.message).toMatch(/which protocol version 2025-06-18 does not have/);
  });

  const payload = (value: unknown) => `00000000-0000-0000-0000-000000000000.${Buffer.from(JSON.stringify(value)).toString('base64url')}`;
  it.each([
    ['not ours', 'abc'],
    ['not base64url JSON', '00000000-0000-0000-0000-000000000000.!!!'],
    ['naming a revision not served', payload({ v: '2024-10-07', c: { elicitation: {} } })],
    ['a JSON value other than an object', payload(['2025-11-25'])],
    ['longer than any the server issues', payload({ v: '2025-11-25', c: { elicitation: {}, pad: 'x'.repeat(2000) } })],
    ['without the UUID it is issued with', `x.${Buffer.from(JSON.stringify({ v: '2025-11-25', c: {} })).toString('base64url')}`],
  ])('ignores a session id %s: the request is served as one without any (2025-03-26, capabilities unknown)', async (_case, session) => {
    const call = await legacyToolCall(app().server, 'ask', { kind: 'form' }, answer, { headers: withSession(session, null) });
    expect(asked(call.messages)).toEqual([]);
    expect(call.messages.at(-1)!.error.message).toMatch(/which protocol version 2025-03-26 does not have/);
    // Capabilities unknown, not "declared none": an input request is sent to find out.
    const roots = await legacyToolCall(app().server, 'ask', { kind: 'roots' }, answer, { headers: withSession(session) });
    expect(asked(roots.messages)).toEqual(['roots/list']);
  });

  /** A session id of the server's form carrying 2025-06-18 and elicitation, padded to exactly `length` characters. */
  function sessionOfLength(length: number): string {
    for (let pad = 0; pad < length; pad++) {
      const id = payload({ v: '2025-06-18', c: { elicitation: {} }, pad: 'x'.repeat(pad) });
      if (id.length === length) return id;
    }
    throw new Error(`no session id is ${length} characters long`);
  }

  it('reads a session id of 2,048 characters and ignores one of 2,049', async () => {
    const at = await legacyToolCall(app().server, 'ask', { kind: 'form' }, answer, { headers: withSession(sessionOfLength(2048), null) });
    expect(asked(at.messages)).toEqual(['elicitation/create']); // served under 2025-06-18 with elicitation
    const over = await legacyToolCall(app().server, 'ask', { kind: 'form' }, answer, { headers: withSession(sessionOfLength(2049), null) });
    expect(asked(over.messages)).toEqual([]);
    expect(over.messages.at(-1)!.error.message).toMatch(/which protocol version 2025-03-26 does not have/);
  });

  /** `n` sub-capabilities named `s0`…, and `extra`. */
  const subs = (n: number, extra: Record<string, unknown> = {}) => ({ ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, {}])), ...extra });
  /** The messages of a call asking for sampling with tools, from a client that initialized declaring `sampling`. */
  const samplingTools = async (sampling: Record<string, unknown>) =>
    (await legacyToolCall(app().server, 'ask', { kind: 'sampling_tools' }, answer, { headers: withSession(await sessionOf({ sampling })) })).messages;

  it('keeps 8 sub-capabilities of a capability: the 8th declared is kept, the 9th dropped', async () => {
    expect(asked(await samplingTools(subs(7, { tools: {} })))).toEqual(['sampling/createMessage']);
    const ninth = await samplingTools(subs(8, { tools: {} }));
    expect(asked(ninth)).toEqual([]);
    expect(ninth.at(-1)!.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: { tools: {} } } } });
  });

  it('counts a sub-capability name of 32 characters and drops (does not count) one of 33', async () => {
    expect(asked(await samplingTools(subs(7, { ['n'.repeat(32)]: {}, tools: {} })))).toEqual([]);
    expect(asked(await samplingTools(subs(7, { ['n'.repeat(33)]: {}, tools: {} })))).toEqual(['sampling/createMessage']);
  });

  it('reads a session id sent on two header lines as none (a proxy routing on it may have read the other)', async () => {
    const declaresSampling = await sessionOf({ sampling: {} });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'adaptive', arguments: {} } });
    const lines = (...sessions: string[]) => [
      ['Content-Type', 'application/json'] as const,
      ['Accept', 'application/json'] as const, // no stream: a tool that asks anything gets -32600 at once
      ['MCP-Protocol-Version', '2025-11-25'] as const,
      ...sessions.map((session) => ['Mcp-Session-Id', session] as const),
    ];
    const once = await rawRequest(app().server, { headers: lines(declaresSampling), body });
    expect((once.body as Record<string, any>).error.code).toBe(-32600); // sampling declared: asked, and no stream to ask on
    const twice = await rawRequest(app().server, { headers: lines(declaresSampling, declaresSampling), body });
    expect((twice.body as Record<string, any>).result.content).toEqual([{ type: 'text', text: 'adapted' }]);
  });

  it('keeps only what decides an input request, whatever a client puts in a session id of its own making', async () => {
    const forged = payload({ v: '2025-11-25', c: { sampling: { tools: 'yes', context: {} }, roots: [] } });
    const tools = await legacyToolCall(app().server, 'ask', { kind: 'sampling_tools' }, answer, { headers: withSession(forged) });
    expect(tools.messages.at(-1)!.error.data).toEqual({ requiredCapabilities: { sampling: { tools: {} } } });
    const context = await legacyToolCall(app().server, 'ask', { kind: 'sampling_context' }, answer, { headers: withSession(forged) });
    expect(asked(context.messages)).toEqual(['sampling/createMessage']);
    const roots = await legacyToolCall(app().server, 'ask', { kind: 'roots' }, answer, { headers: withSession(forged) });
    expect(roots.messages.at(-1)!.error.data).toEqual({ requiredCapabilities: { roots: {} } });
  });
});

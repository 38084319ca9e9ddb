import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

import { describe, expect, it } from '@jest/globals';

import { McpContext, McpInputRequired, isInputRequired } from '../../lib/index.js';
import { ElicitationSchemaCache } from '../../lib/mrtr/elicitation-schema-cache.js';
import { MrtrRound } from '../../lib/mrtr/mrtr-round.js';
import { requestBinding } from '../../lib/mrtr/request-binding.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { AnswerStream } from '../../lib/response/answer-stream.js';
import { answerBounds } from '../support/answer-bounds.js';
import { meta } from '../support/mcp-client.js';

const protocol = await ProtocolSchema.vendored();

const FORM = { message: 'ok?', requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } } };

/** A context for tool `t` of a request with the given `_meta` overrides, optionally with a round. */
function context(metaOverrides: Record<string, unknown> = {}, round?: MrtrRound): McpContext {
  return new McpContext({ record: { meta: meta(metaOverrides) }, headers: {}, request: {}, tool: 't', signal: new AbortController().signal, inputs: round });
}

const round = (capabilities: Record<string, unknown>, responses?: Record<string, unknown>) =>
  new MrtrRound({
    method: 'tools/call',
    binding: () => requestBinding('mcp', 'tools/call', { name: 't' }, undefined),
    capabilities,
    responses,
    echoed: undefined,
    schemas: new ElicitationSchemaCache(),
    protocol,
  });

describe('McpContext', () => {
  it('reads the protocol fields of its own request', () => {
    const ctx = context({ progressToken: 'p', 'io.modelcontextprotocol/logLevel': 'info', 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } });
    expect(ctx.protocolVersion).toBe('2026-07-28');
    expect(ctx.clientCapabilities).toEqual({ sampling: {} });
    expect(ctx.clientInfo).toEqual({ name: 'test-client', version: '1.0.0' });
    expect(ctx.progressToken).toBe('p');
    expect(ctx.log.level).toBe('info');
  });

  it('without a round, an answer stream or a task: input requests reject, state is unavailable, nothing is sent, startTask runs on', async () => {
    const ctx = context({ progressToken: 'p', 'io.modelcontextprotocol/logLevel': 'debug' });
    await expect(ctx.elicit(FORM)).rejects.toThrow('elicitation is not available here');
    await expect(ctx.listRoots()).rejects.toThrow('roots is not available here');
    expect(ctx.state).toBeUndefined();
    expect(() => (ctx.state = 1)).toThrow('state is not available here');
    expect(ctx.progress(1)).toBe(false);
    expect(ctx.log.error('x')).toBe(false);
    expect(ctx.log.enabled('emergency')).toBe(false);
    await expect(ctx.startTask()).resolves.toBeUndefined();
    expect(ctx.taskId).toBeUndefined();
  });

  it('refuses progress values that are not finite numbers, and unknown log levels', () => {
    const ctx = context({ progressToken: 'p' });
    expect(() => ctx.progress(Number.NaN)).toThrow(TypeError);
    expect(() => ctx.progress(1, Infinity)).toThrow(TypeError);
    expect(() => ctx.log.log('verbose' as never, 'x')).toThrow('unknown log level');
  });

  it('collects every input request made before awaiting, then rejects each with one input-required signal', async () => {
    const r = round({ elicitation: {}, sampling: {}, roots: {} });
    const ctx = context({}, r);
    const asked = [ctx.elicit(FORM), ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }), ctx.listRoots()];
    const outcomes = await Promise.allSettled(asked);
    const reasons = outcomes.map((o) => (o.status === 'rejected' ? o.reason : undefined));
    expect(reasons.every(isInputRequired)).toBe(true);
    expect(new Set(reasons).size).toBe(1);
    expect((reasons[0] as { keys: string[] }).keys).toEqual(['elicit-1', 'sample-1', 'roots-1']);
    expect(r.inputRequired).toBe(true);
    expect(r.pendingKinds).toEqual(['elicitation', 'sampling', 'roots']);
  });

  it('tells the input-required signal by its containment mark, not by its name alone (a tool error named so is none)', () => {
    expect(isInputRequired(Object.assign(new Error('mine'), { name: 'McpInputRequired' }))).toBe(false);
    expect(isInputRequired(new McpInputRequired(['k']))).toBe(true);
  });

  it('never leaves an unhandled rejection when a tool is busy elsewhere before awaiting its input request', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const ctx = context({}, round({ elicitation: {}, roots: {} }));
      const pending = ctx.elicit(FORM);
      const roots = ctx.listRoots();
      await new Promise((resolve) => setTimeout(resolve, 30));
      await expect(pending).rejects.toHaveProperty('name', 'McpInputRequired');
      await expect(roots).rejects.toHaveProperty('name', 'McpInputRequired');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  it('shares progress between the contexts of one request (withAction), so values keep increasing', () => {
    const req = new IncomingMessage(new Socket());
    const res = new ServerResponse(req);
    const answer = AnswerStream.attach(req, res, 'tools/call', answerBounds());
    const ctx = new McpContext({ record: { meta: meta({ progressToken: 'p' }) }, headers: {}, request: {}, tool: 't', signal: answer.signal, answer });
    const action = ctx.withAction('create');
    expect([action.action, action.tool, action.progressToken]).toEqual(['create', 't', 'p']);
    expect(ctx.progress(5)).toBe(true);
    expect(action.progress(5)).toBe(false);
    expect(action.progress(6)).toBe(true);
    expect(answer.streaming).toBe(true);
    expect(res.headersSent).toBe(true);
  });

  it('rejects input requests made after its round ended', async () => {
    const r = round({ elicitation: {} });
    const ctx = context({}, r);
    r.close();
    await expect(ctx.elicit(FORM)).rejects.toThrow('asked after the request it belongs to was answered');
    expect(() => (ctx.state = 1)).toThrow('after the request it belongs to was answered');
  });
});

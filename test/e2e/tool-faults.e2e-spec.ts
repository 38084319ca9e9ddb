import { describe, expect, it } from '@jest/globals';
import { NotFoundException } from '@nestjs/common';

import { McpMethodError, McpTool, PASSES_CONTAINMENT, type McpContext, type McpPlainTool } from '../../lib/index.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { meta, post, recordEvents, rpc } from '../support/mcp-client.js';
import { sseMessages } from '../support/sse.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool } from '../support/tool-call.js';
import { ALL_TOOLS } from '../support/tools.js';

const schema = await ProtocolSchema.vendored();

/** One row per fault kind: the action, the `exception` the diagnostic names, and what its message starts with. */
const FAULTS: [string, string, string, RegExp][] = [
  ['an Error', 'error', 'RangeError', /^the disk is full\\u000asecond line$/],
  ['a thrown string', 'string', 'string', /^a thrown string$/],
  ['a thrown plain object', 'object', 'object', /^\{ code: 42 \}$/],
  ['a rejected promise', 'rejected', 'TypeError', /^async failure$/],
  ['an Error with a huge message', 'huge', 'Error', /^x+…$/],
  ['a return JSON cannot carry', 'bigint', 'TypeError', /BigInt/],
  ['MCP content holding a BigInt', 'bigcontent', 'MalformedToolResultError', /^tool "faulty" returned MCP content JSON cannot carry: .*BigInt/],
  ['MCP content holding a cycle', 'cyclic', 'MalformedToolResultError', /^tool "faulty" returned MCP content JSON cannot carry: .*circular/],
  [
    'MCP content the protocol refuses',
    'malformed',
    'MalformedToolResultError',
    /^tool "faulty" returned MCP content that is not a valid CallToolResult: content\[0\]: missing required property "text"$/,
  ],
];

/** A plain tool whose service throws Nest's NotFoundException, as a Nest developer writes one. */
@McpTool({ name: 'find_task', description: 'Finds a task.', inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } })
class FindTaskTool implements McpPlainTool {
  run(args: { id: number }): string {
    throw new NotFoundException(`Task ${args.id} not found`);
  }
}

describe('a Nest HttpException from a plain tool', () => {
  const app = useTestApp({ providers: [FindTaskTool] });

  it('is the tool answer it is, not a fault: isError with its status and message, no fault event', async () => {
    let answer: Awaited<ReturnType<typeof callTool>> | undefined;
    const events = await recordEvents(['mcp:tool:error', 'mcp:tool:stop'], async () => {
      answer = await callTool(app().server, 'find_task', { id: 7 });
    });
    expect(answer!.result.isError).toBe(true);
    expect(answer!.body).toEqual({ error: 'NotFoundException', status: 404, message: 'Task 7 not found' });
    expect(events.map((e) => e.channel)).toEqual(['mcp:tool:stop']);
  });
});

describe('fault containment', () => {
  const app = useTestApp({ providers: ALL_TOOLS });

  it.each([
    ['missing', { error: 'NotFoundException', status: 404, message: 'Task 7 not found' }],
    ['forbidden', { error: 'ForbiddenException', status: 403, message: 'Tasks are read-only for you' }],
    ['broken', { error: 'InternalServerErrorException', status: 500, message: 'the store is down' }],
    ['invalid', { error: 'BadRequestException', status: 400, message: 'title must be a string; due must be a date' }],
  ])('answers a Nest HttpException (%s) as the tool answer it is, not a fault: isError with its status and message, no fault event', async (action, body) => {
    let answer: Awaited<ReturnType<typeof callTool>> | undefined;
    const events = await recordEvents(['mcp:tool:error', 'mcp:tool:stop'], async () => {
      answer = await callTool(app().server, 'faulty', { action });
    });
    expect(answer!.result.isError).toBe(true);
    expect(answer!.body).toEqual(body);
    expect(events.map((e) => e.channel)).toEqual(['mcp:tool:stop']);
    expect(events[0]!.message).toMatchObject({ isError: true, errorKind: 'tool' });
  });

  it.each(FAULTS)('answers %s as an isError tool_fault diagnostic, bounded, with no stack trace', async (_kind, action, exception, message) => {
    const answer = await callTool(app().server, 'faulty', { action });
    expect(answer.status).toBe(200);
    expect(answer.result.isError).toBe(true);
    expect(answer.body).toEqual({ errorType: 'tool_fault', tool: 'faulty', exception, message: expect.stringMatching(message) });
    expect(answer.body.message.length).toBeLessThanOrEqual(300);
    expect(answer.result.content![0]!.text).not.toMatch(/\n\s+at |\.ts:\d+/);
  });

  it.each(FAULTS)('emits mcp:tool:error for %s, naming tool, action and kind', async (_kind, action, exception) => {
    const events = await recordEvents(['mcp:tool:error'], () => callTool(app().server, 'faulty', { action }));
    expect(events).toEqual([
      { channel: 'mcp:tool:error', message: { mount: '/mcp', era: 'modern', tool: 'faulty', action, exception, error: expect.any(String), fault: expect.anything() } },
    ]);
  });

  it('contains a hook that returns the wrong shape like a handler fault', async () => {
    const answer = await callTool(app().server, 'badhooks', { action: 'hinted' });
    expect(answer.body).toMatchObject({
      errorType: 'tool_fault',
      tool: 'badhooks',
      exception: 'TypeError',
      message: expect.stringContaining('hints() of tool "badhooks" must return an array'),
    });
  });

  it('contains an actionContext hook with the wrong return on the help path too', async () => {
    const answer = await callTool(app().server, 'help', { tool: 'badhooks', action: 'hinted' });
    expect(answer.body).toMatchObject({
      errorType: 'tool_fault',
      tool: 'help',
      exception: 'TypeError',
      message: expect.stringContaining('actionContext() of tool "badhooks" must return an object'),
    });
  });

  it('lets a method error a tool raised on purpose through, as the JSON-RPC error it carries', async () => {
    const answer = await callTool(app().server, 'faulty', { action: 'method' });
    expect(answer.error).toMatchObject({ code: -32021, message: 'Missing required client capability: elicitation', data: { required: ['elicitation'] } });
    expect(answer.result).toEqual({});
  });

  it('rethrows any value carrying the containment pass mark instead of answering a tool_fault', async () => {
    const events = await recordEvents(['mcp:tool:error'], async () => {
      const answer = await callTool(app().server, 'faulty', { action: 'passing' });
      expect(answer.result.isError).toBeUndefined();
      expect(answer.error).toBeDefined();
    });
    expect(events).toEqual([]);
  });

  it('keeps serving after every kind of fault', async () => {
    for (const [, action] of FAULTS) await callTool(app().server, 'faulty', { action });
    const answer = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'Still here', project: 'p' } });
    expect(answer.body.task.name).toBe('Still here');
  });
});

const cyclic: Record<string, unknown> = { step: 1 };
cyclic.self = cyclic;

/** A method error from another copy of the library (its own class, never checked by this constructor). */
const lookAlike = (code: number, message: string, httpStatus = 200) =>
  Object.assign(new Error(message), { name: 'McpMethodError', code, httpStatus, [PASSES_CONTAINMENT]: true }) as unknown as McpMethodError;

/** Method errors a tool may raise on purpose that no JSON-RPC envelope can carry as they are. */
const UNSENDABLE: Record<string, () => McpMethodError> = {
  'data JSON cannot carry (a BigInt)': () => new McpMethodError(-32602, 'Invalid params: too big.', { limit: 10n }),
  'cyclic data': () => new McpMethodError(-32602, 'Invalid params: cyclic.', cyclic),
  'an HTTP status that does not exist, from a look-alike': () => lookAlike(-32602, 'Invalid params: odd status.', 99),
  'a code 2026-07-28 retired (-32002), from a look-alike': () => lookAlike(-32002, 'Resource not found.'),
};

/** Method errors built wrong, each refused by the constructor with a TypeError naming what it needs. */
const MISBUILT: [string, () => McpMethodError, string][] = [
  [
    'the code and message swapped',
    // @ts-expect-error -- the mistake under test
    () => new McpMethodError('user not found', -32602),
    'McpMethodError(code, message, data?, httpStatus?) needs an integer code the spec lets a server emit (such as -32602, invalid params; not -32002 or -32042, which 2026-07-28 retired, nor -32023 to -32099, which it reserves), not "user not found"; the arguments look swapped: the code comes first',
  ],
  ['a code that is not an integer', () => new McpMethodError(1.5, 'Odd code.'), 'needs an integer code the spec lets a server emit'],
  ['a code 2026-07-28 retired (-32002)', () => new McpMethodError(-32002, 'Resource not found.'), 'not -32002'],
  ['a code 2026-07-28 retired (-32042)', () => new McpMethodError(-32042, 'URL elicitation required.'), 'not -32042'],
  ['a code the spec reserves and does not define (-32050)', () => new McpMethodError(-32050, 'Reserved.'), 'not -32050'],
  ['the first code of the reserved range (-32023)', () => new McpMethodError(-32023, 'Reserved.'), 'not -32023'],
  ['the last code of the reserved range (-32099)', () => new McpMethodError(-32099, 'Reserved.'), 'not -32099'],
  ['a code past the safe integers', () => new McpMethodError(2 ** 53, 'Huge.'), 'not 9007199254740992'],
  // @ts-expect-error -- the mistake under test
  ['a message that is not a string', () => new McpMethodError(-32602, { text: 'no' }), 'needs a string message, not { text: '],
  [
    'an HTTP status that does not exist',
    () => new McpMethodError(-32602, 'Invalid params: odd status.', undefined, 99),
    'needs an HTTP status from 100 to 599 (or none, for 200), not 99',
  ],
  ['an HTTP status past 599', () => new McpMethodError(-32602, 'Invalid params: odd status.', undefined, 600), 'not 600'],
];

@McpTool({
  name: 'misbuilt',
  description: 'Raises a method error built wrong.',
  inputSchema: { type: 'object', properties: { how: { type: 'string' } }, required: ['how'] },
})
class MisbuiltTool implements McpPlainTool {
  run(args: { how: string }) {
    throw MISBUILT.find(([how]) => how === args.how)![1]();
  }
}

describe('method errors built wrong', () => {
  const app = useTestApp({ providers: [MisbuiltTool] });

  it.each(MISBUILT)('refuses one with %s where it is built, with a TypeError naming what it needs', (_how, build, named) => {
    expect(build).toThrow(TypeError);
    expect(build).toThrow(named);
  });

  it.each(MISBUILT.map(([how, , named]) => [how, named]))('answers a tool raising one with %s as a tool_fault naming the mistake, not a bare 500', async (how, named) => {
    const answer = await callTool(app().server, 'misbuilt', { how });
    expect(answer.status).toBe(200);
    expect(answer.error).toBeUndefined();
    expect(answer.body).toEqual({
      errorType: 'tool_fault',
      tool: 'misbuilt',
      exception: 'TypeError',
      message: expect.stringMatching(/^McpMethodError\(code, message, data\?, httpStatus\?\) needs /),
    });
    expect(answer.body.message).toContain(named);
  });
});

@McpTool({
  name: 'unsendable',
  description: 'Raises a method error no envelope can carry.',
  inputSchema: { type: 'object', properties: { how: { type: 'string' }, progress: { type: 'boolean' } }, required: ['how'] },
})
class UnsendableTool implements McpPlainTool {
  run(args: { how: string; progress?: boolean }, ctx: McpContext) {
    if (args.progress) ctx.progress(1, 2);
    throw UNSENDABLE[args.how]!();
  }
}

describe('method errors the sender cannot send as they are', () => {
  const app = useTestApp({ providers: [UnsendableTool] });

  it.each(Object.keys(UNSENDABLE))('answers one with %s by method containment: 500 + -32603 in the JSON-RPC dialect, one event', async (how) => {
    const events = await recordEvents(['mcp:method:error'], async () => {
      const res = await post(app().server, rpc('tools/call', { name: 'unsendable', arguments: { how } }, 'u'));
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 'u', error: { code: -32603, message: 'Internal error while handling tools/call.' } });
      expect(schema.check('JSONRPCErrorResponse', res.body)).toEqual([]);
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.message).toMatchObject({ method: 'tools/call' });
  });

  it.each(Object.keys(UNSENDABLE))('ends an SSE answer already under way with the -32603 error as its last event, for one with %s', async (how) => {
    const res = await post(app().server, rpc('tools/call', { _meta: meta({ progressToken: 'p' }), name: 'unsendable', arguments: { how, progress: true } }, 's'));
    expect(res.status).toBe(200);
    const messages = sseMessages(res.text);
    expect(messages.map((m) => m.method ?? 'final')).toEqual(['notifications/progress', 'final']);
    expect(messages[1]).toEqual({ jsonrpc: '2.0', id: 's', error: { code: -32603, message: 'Internal error while handling tools/call.' } });
  });
});

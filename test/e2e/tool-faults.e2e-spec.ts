import { describe, expect, it } from '@jest/globals';
import { useTestApp } from '../support/suite-app.js';
import { recordEvents } from '../support/mcp-client.js';
import { callTool } from '../support/tool-call.js';
import { ALL_TOOLS } from '../support/tools.js';

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
  ['MCP content the protocol refuses', 'malformed', 'MalformedToolResultError', /^tool "faulty" returned MCP content that is not a valid CallToolResult: content\[0\]/],
];

describe('fault containment', () => {
  const app = useTestApp({ providers: ALL_TOOLS });

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
    expect(events).toEqual([{ channel: 'mcp:tool:error', message: { tool: 'faulty', action, exception, error: expect.any(String) } }]);
  });

  it('contains a hook that returns the wrong shape like a handler fault', async () => {
    const answer = await callTool(app().server, 'badhooks', { action: 'hinted' });
    expect(answer.body).toMatchObject({ errorType: 'tool_fault', tool: 'badhooks', exception: 'TypeError', message: expect.stringContaining('hints() of tool "badhooks" must return an array') });
  });

  it('contains an actionContext hook with the wrong return on the help path too', async () => {
    const answer = await callTool(app().server, 'help', { tool: 'badhooks', action: 'hinted' });
    expect(answer.body).toMatchObject({ errorType: 'tool_fault', tool: 'help', exception: 'TypeError', message: expect.stringContaining('actionContext() of tool "badhooks" must return an object') });
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

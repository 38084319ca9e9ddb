import { describe, expect, it } from '@jest/globals';

import type { McpChannel } from '../../lib/index.js';
import { recordEvents } from '../support/mcp-client.js';
import { useTestApp } from '../support/suite-app.js';
import { BreaksTool, taskCall, waitForStatus } from '../support/task-tools.js';
import { callTool } from '../support/tool-call.js';
import { ALL_TOOLS, LookupTool } from '../support/tools.js';

const TOOL_CHANNELS: McpChannel[] = ['mcp:tool:start', 'mcp:tool:stop', 'mcp:tool:error', 'mcp:help:called'];

describe('tool telemetry', () => {
  const app = useTestApp({ providers: [...ALL_TOOLS, LookupTool, BreaksTool] });

  const record = (name: string, args: unknown) => recordEvents(TOOL_CHANNELS, () => callTool(app().server, name, args));

  it('a successful run: start, then stop with the action, a duration and no error', async () => {
    const events = await record('tasks', { action: 'create', data: { name: 'T', project: 'p' } });
    expect(events).toEqual([
      { channel: 'mcp:tool:start', message: { mount: '/mcp', era: 'modern', tool: 'tasks', action: 'create' } },
      { channel: 'mcp:tool:stop', message: { mount: '/mcp', era: 'modern', tool: 'tasks', action: 'create', durationMs: expect.any(Number), isError: false } },
    ]);
  });

  it('a gate refusal: stop with errorKind dispatch, and no action where the call named none the tool has', async () => {
    const events = await record('tasks', { action: 'crate' });
    expect(events).toEqual([
      { channel: 'mcp:tool:start', message: { mount: '/mcp', era: 'modern', tool: 'tasks' } },
      { channel: 'mcp:tool:stop', message: { mount: '/mcp', era: 'modern', tool: 'tasks', durationMs: expect.any(Number), isError: true, errorKind: 'dispatch' } },
    ]);
  });

  it('a data-level gate refusal of an action the tool has: stop names the action, as start does', async () => {
    const events = await record('tasks', { action: 'create', data: {} });
    expect(events).toEqual([
      { channel: 'mcp:tool:start', message: { mount: '/mcp', era: 'modern', tool: 'tasks', action: 'create' } },
      {
        channel: 'mcp:tool:stop',
        message: { mount: '/mcp', era: 'modern', tool: 'tasks', action: 'create', durationMs: expect.any(Number), isError: true, errorKind: 'dispatch' },
      },
    ]);
  });

  it('an answer the tool failed with: stop with errorKind tool, and no fault event', async () => {
    const events = await record('tasks', { action: 'close', data: { id: 1 } });
    expect(events.map((e) => e.channel)).toEqual(['mcp:tool:start', 'mcp:tool:stop']);
    expect(events[1]!.message).toMatchObject({ action: 'close', isError: true, errorKind: 'tool' });
  });

  it('a caller refusal from a plain tool (refuse()): isError, formatted like fail(), stop with errorKind dispatch', async () => {
    const events = await record('lookup', { id: 'zz' });
    expect(events).toEqual([
      { channel: 'mcp:tool:start', message: { mount: '/mcp', era: 'modern', tool: 'lookup' } },
      { channel: 'mcp:tool:stop', message: { mount: '/mcp', era: 'modern', tool: 'lookup', durationMs: expect.any(Number), isError: true, errorKind: 'dispatch' } },
    ]);
    const answer = await callTool(app().server, 'lookup', { id: 'zz' });
    expect(answer.result).toMatchObject({ resultType: 'complete', isError: true, content: [{ type: 'text', text: 'Operation failed: no item has id zz' }] });
    const found = await record('lookup', { id: 'a1' });
    expect(found[1]!.message).toEqual({ mount: '/mcp', era: 'modern', tool: 'lookup', durationMs: expect.any(Number), isError: false });
  });

  it('a fault: the error event, carrying the thrown error itself, between start and stop; stop with errorKind tool', async () => {
    const events = await record('faulty', { action: 'error' });
    const fault = (events[1]!.message as { fault: unknown }).fault;
    expect(fault).toBeInstanceOf(RangeError);
    expect((fault as Error).stack).toContain('FaultyTool.error');
    expect(events).toEqual([
      { channel: 'mcp:tool:start', message: { mount: '/mcp', era: 'modern', tool: 'faulty', action: 'error' } },
      {
        channel: 'mcp:tool:error',
        message: { mount: '/mcp', era: 'modern', tool: 'faulty', action: 'error', exception: 'RangeError', error: 'the disk is full\\u000asecond line', fault },
      },
      {
        channel: 'mcp:tool:stop',
        message: { mount: '/mcp', era: 'modern', tool: 'faulty', action: 'error', durationMs: expect.any(Number), isError: true, errorKind: 'tool' },
      },
    ]);
  });

  it('a JSON-RPC error the tool threw: stop with isError and errorKind tool, in a call and in a task', async () => {
    const stop = { channel: 'mcp:tool:stop', message: { mount: '/mcp', era: 'modern', tool: 'breaks', durationMs: expect.any(Number), isError: true, errorKind: 'tool' } };
    expect((await record('breaks', { how: 'method' })).at(-1)).toEqual(stop);
    const events = await recordEvents(TOOL_CHANNELS, async () => {
      const taskId = (await taskCall(app().server, 'breaks', { how: 'method' })).body.result.taskId as string;
      expect((await waitForStatus(app().server, taskId, ['failed'])).status).toBe('failed');
    });
    expect(events.at(-1)).toEqual(stop);
  });

  it('help: mcp:help:called with what was asked and whether it was found', async () => {
    const found = await record('help', { tool: 'tasks', action: 'create' });
    expect(found.find((e) => e.channel === 'mcp:help:called')?.message).toEqual({ mount: '/mcp', tool: 'tasks', action: 'create', found: true });
    const missing = await record('help', { tool: 'nope' });
    expect(missing.find((e) => e.channel === 'mcp:help:called')?.message).toEqual({ mount: '/mcp', tool: 'nope', found: false });
    expect(missing.find((e) => e.channel === 'mcp:tool:stop')?.message).toMatchObject({ tool: 'help', isError: true, errorKind: 'dispatch' });
  });

  it('help: mcp:help:called, not found, for a call its argument gates refuse', async () => {
    const refused = await record('help', { tool: 'tasks', stray: 1 });
    expect(refused.filter((e) => e.channel === 'mcp:help:called').map((e) => e.message)).toEqual([{ mount: '/mcp', tool: 'tasks', found: false }]);
    expect(refused.find((e) => e.channel === 'mcp:tool:stop')?.message).toMatchObject({ tool: 'help', isError: true, errorKind: 'dispatch' });
  });
});

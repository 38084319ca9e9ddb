import { describe, expect, it } from '@jest/globals';
import { of } from 'rxjs';

import { McpAction, McpTool, fail, ok, type McpPlainTool } from '../../lib/index.js';
import { post, recordEvents, rpc } from '../support/mcp-client.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool } from '../support/tool-call.js';
import { ALL_TOOLS } from '../support/tools.js';

/** An object a tool returns on every call, which answering must leave as it is. */
const SHARED = { id: 1 };

/** Returns values JSON writes through their toJSON, with a hint context so hints sit beside them. */
@McpTool({ name: 'dated', description: 'Values with a toJSON' })
class DatedTool {
  @McpAction({ description: 'A Date, with hints', properties: {} })
  when() {
    return ok(new Date(0), {});
  }

  @McpAction({ description: 'An object with its own toJSON, with hints', properties: {} })
  summary() {
    return ok({ secret: 's', toJSON: () => ({ id: 1 }) }, {});
  }

  @McpAction({ description: 'An object whose toJSON writes the key JSON gives it, with hints', properties: {} })
  keyed() {
    return ok({ toJSON: (key: string) => ({ key }) }, {});
  }

  @McpAction({ description: 'Nothing at all', properties: {} })
  nothing(): void {}

  @McpAction({ description: 'The same object every call, with hints', properties: {} })
  shared() {
    return ok(SHARED, {});
  }

  @McpAction({ description: 'A failure whose reason is an Error (no formatError hook)', properties: {} })
  broken() {
    return fail(new Error('disk full'));
  }

  hints() {
    return [{ tool: 'dated', action: 'when', description: 'Ask again' }];
  }
}

/** An output schema over what JSON writes: a Date goes out as its ISO string. */
@McpTool({
  name: 'stamped',
  description: 'Structured content holding a Date',
  outputSchema: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, required: ['at'] },
})
class StampedTool {
  @McpAction({ description: 'A value holding a Date', properties: {} })
  value() {
    return { at: new Date(0) };
  }

  @McpAction({ description: 'MCP content whose structured content holds a Date', properties: {} })
  content() {
    return { content: [{ type: 'text', text: 'epoch' }], structuredContent: { at: new Date(0) } };
  }
}

/** A plain tool whose output schema's union branches are `$ref`s, returning a circle with a negative radius. */
@McpTool({
  name: 'measure',
  description: 'Measures a shape.',
  inputSchema: { type: 'object', properties: {} },
  outputSchema: {
    type: 'object',
    properties: { shape: { oneOf: [{ $ref: '#/$defs/circle' }, { $ref: '#/$defs/square' }] } },
    $defs: {
      circle: { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number', minimum: 0 } }, required: ['kind', 'radius'] },
      square: { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number', minimum: 0 } }, required: ['kind', 'side'] },
    },
  },
})
class MeasureTool implements McpPlainTool {
  run() {
    return { shape: { kind: 'circle', radius: -1 } };
  }
}

/** An output schema six string properties long, for data that breaks every one. */
@McpTool({
  name: 'wide',
  description: 'Structured content with six properties',
  outputSchema: { type: 'object', properties: Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => [k, { type: 'string' }])) },
})
class WideTool {
  @McpAction({ description: 'Numbers where strings belong', properties: {} })
  numbers() {
    return { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 };
  }

  @McpAction({ description: 'An error as MCP content, without structured content', properties: {} })
  refused() {
    return { content: [{ type: 'text', text: 'not today' }], isError: true };
  }

  @McpAction({ description: 'A failure formatError answers with no string', properties: {} })
  failed() {
    return fail('no');
  }

  @McpAction({ description: 'A success whose hint context is undefined', properties: {} })
  hinted() {
    return ok({ a: 'x' }, undefined);
  }

  formatError(reason: unknown): unknown {
    return { reason };
  }

  hints(_action: string, hintContext: unknown) {
    return [{ tool: 'wide', action: 'numbers', description: `asked with ${String(hintContext)}` }];
  }
}

/** Returns what JSON would send as `{}`: an Observable (a Nest controller habit), a Map, a Set. */
@McpTool({ name: 'emptied', description: 'Values JSON would empty' })
class EmptiedTool {
  @McpAction({ description: 'An Observable', properties: {} })
  observable() {
    return of({ id: 1 });
  }

  @McpAction({ description: 'A Map', properties: {} })
  map() {
    return new Map([['id', 1]]);
  }

  @McpAction({ description: 'A Set, through ok() with a hint context', properties: {} })
  set() {
    return ok(new Set([1]), {});
  }
}

/** A plain tool whose output schema a Map would pass as `{}`. */
@McpTool({ name: 'emptied_plain', description: 'A Map under an output schema', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } })
class EmptiedPlainTool implements McpPlainTool {
  run() {
    return new Map([['id', 1]]);
  }
}

/** Data shaped like MCP content, an outcome or nothing without being one, sent as data. */
@McpTool({ name: 'shaped', description: 'Data that looks like something else' })
class ShapedTool {
  @McpAction({ description: 'An object whose content is no list', properties: {} })
  textual() {
    return { content: 'words', n: 1 };
  }

  @McpAction({ description: 'An object shaped like fail(), not built by it', properties: {} })
  lookalike() {
    return { kind: 'fail', value: 'x', hasHintContext: false };
  }

  @McpAction({ description: 'null, which is a value', properties: {} })
  nil() {
    return null;
  }

  @McpAction({ description: 'MCP content wrapped in ok()', properties: {} })
  wrapped() {
    return ok({ content: [{ type: 'text', text: 't' }] });
  }
}

describe('what a handler returns becomes a tool result', () => {
  const app = useTestApp({ providers: [...ALL_TOOLS, DatedTool, StampedTool, EmptiedTool, EmptiedPlainTool, WideTool, MeasureTool, ShapedTool] });

  it('ok(data, hintContext): JSON text with the hints the tool computed and its action context', async () => {
    const answer = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'Hinted', project: 'p' } });
    const id = answer.body.task.id;
    expect(answer.result.isError).toBeUndefined();
    expect(answer.body.hints).toEqual([{ tool: 'tasks', action: 'get', description: 'View the task', example: { id } }]);
    expect(answer.body.context).toEqual({ stored: expect.any(Number), asked_by: 'test-client', for: 'tasks.create' });
  });

  it('a bare value: its JSON, with no hints and no context where the hook gives none', async () => {
    const created = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'Plain', project: 'p' } });
    const answer = await callTool(app().server, 'tasks', { action: 'get', data: { id: created.body.task.id } });
    expect(answer.result.content).toEqual([{ type: 'text', text: JSON.stringify(answer.body) }]);
    expect(answer.body).toMatchObject({ id: created.body.task.id, name: 'Plain' });
    expect(answer.body.hints).toBeUndefined();
    expect(answer.body.context).toBeUndefined();
  });

  it("fail(reason): an isError result whose text is the tool's formatError(reason)", async () => {
    const answer = await callTool(app().server, 'tasks', { action: 'close', data: { id: 7 } });
    expect(answer.result).toMatchObject({ resultType: 'complete', isError: true, content: [{ type: 'text', text: 'task 7 is closed' }] });
  });

  it('fail(reason, hintContext): JSON with the formatted error, the hints and the action context', async () => {
    const answer = await callTool(app().server, 'tasks', { action: 'close', data: { id: 7, explain: true } });
    expect(answer.result.isError).toBe(true);
    expect(answer.body).toEqual({
      error: 'task 7 is closed',
      hints: [{ tool: 'tasks', action: 'get', description: 'View the task', example: { id: 7 } }],
      context: { stored: expect.any(Number), asked_by: 'test-client', for: 'tasks.close' },
    });
  });

  it('fail(reason) without a formatError hook: "Operation failed: <reason>"', async () => {
    const answer = await callTool(app().server, 'reports', { action: 'failed' });
    expect(answer.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Operation failed: no report today' }] });
    expect(answer.result.structuredContent).toBeUndefined();
  });

  it("fail(error) without a formatError hook: the Error's message", async () => {
    const answer = await callTool(app().server, 'dated', { action: 'broken' });
    expect(answer.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Operation failed: disk full' }] });
  });

  it('ok(data, undefined): undefined is a hint context like any other, handed to the hints hook', async () => {
    const answer = await callTool(app().server, 'wide', { action: 'hinted' });
    expect(answer.body).toEqual({ a: 'x', hints: [{ tool: 'wide', action: 'numbers', description: 'asked with undefined' }] });
  });

  it("a formatError hook that returns no string: the server's fault, naming the hook", async () => {
    const answer = await callTool(app().server, 'wide', { action: 'failed' });
    expect(answer.body).toEqual({
      errorType: 'tool_fault',
      tool: 'wide',
      exception: 'TypeError',
      message: 'formatError() of tool "wide" must return a string, not { reason: \'no\' }',
    });
  });

  it('ok(data, hintContext): the hints go on a copy, never on the object the tool returned', async () => {
    for (let call = 0; call < 2; call++) {
      const answer = await callTool(app().server, 'dated', { action: 'shared' });
      expect(answer.body).toEqual({ id: 1, hints: [{ tool: 'dated', action: 'when', description: 'Ask again' }] });
    }
    expect(SHARED).toEqual({ id: 1 });
  });

  it.each([
    ['a Date', 'when', { result: '1970-01-01T00:00:00.000Z' }],
    ['an object with its own toJSON', 'summary', { id: 1 }],
    ['an object whose toJSON reads its key (the top level\'s: "")', 'keyed', { key: '' }],
  ])('ok(data, hintContext) where data is %s: hints sit beside (or around) what JSON writes for it, nothing lost', async (_kind, action, written) => {
    const answer = await callTool(app().server, 'dated', { action });
    expect(answer.body).toEqual({ ...written, hints: [{ tool: 'dated', action: 'when', description: 'Ask again' }] });
  });

  it.each([
    ['an object whose content is no list', 'textual', { content: 'words', n: 1 }],
    ['an object shaped like an outcome that ok, fail or refuse did not build', 'lookalike', { kind: 'fail', value: 'x', hasHintContext: false }],
    ['null', 'nil', null],
    ['MCP content wrapped in ok()', 'wrapped', { content: [{ type: 'text', text: 't' }] }],
  ])('%s: data, sent as its JSON', async (_kind, action, data) => {
    const answer = await callTool(app().server, 'shaped', { action });
    expect(answer.result).not.toHaveProperty('isError');
    expect(answer.body).toEqual(data);
  });

  it('nothing (undefined): a success with no content', async () => {
    const res = await post(app().server, rpc('tools/call', { name: 'dated', arguments: { action: 'nothing' } }));
    expect(res.body.result).toMatchObject({ resultType: 'complete', content: [] });
    expect(res.body.result).not.toHaveProperty('isError');
  });

  it.each([
    ['an Observable', 'emptied', { action: 'observable' }, 'an Observable, which is never subscribed to: return a Promise instead (lastValueFrom(observable) from rxjs, say)'],
    ['a Map', 'emptied', { action: 'map' }, 'a Map, which JSON cannot carry (it would be sent as {}): convert it first (Object.fromEntries(map), say)'],
    ['a Set in ok(data, hintContext)', 'emptied', { action: 'set' }, 'a Set, which JSON cannot carry (it would be sent as {}): convert it first (Array.from(set), say)'],
    [
      'a Map from a plain tool whose output schema {} would pass',
      'emptied_plain',
      {},
      'a Map, which JSON cannot carry (it would be sent as {}): convert it first (Object.fromEntries(map), say)',
    ],
  ])("%s: the server's fault naming it and what to return instead, never a success of {}", async (_kind, tool, args, named) => {
    let answer: Awaited<ReturnType<typeof callTool>> | undefined;
    const events = await recordEvents(['mcp:tool:error'], async () => {
      answer = await callTool(app().server, tool, args);
    });
    expect(answer!.result.isError).toBe(true);
    expect(answer!.result.structuredContent).toBeUndefined();
    expect(answer!.body).toEqual({ errorType: 'tool_fault', tool, exception: 'MalformedToolResultError', message: `tool "${tool}" returned ${named}` });
    expect(events.map((e) => e.message.exception)).toEqual(['MalformedToolResultError']);
  });

  it('MCP content: passes through as the tool wrote it (full control)', async () => {
    const answer = await callTool(app().server, 'tasks', { action: 'raw' });
    expect(answer.result.content).toEqual([
      { type: 'text', text: 'raw content' },
      { type: 'text', text: 'second block' },
    ]);
  });

  describe('with an output schema', () => {
    it('is listed with the tool', async () => {
      const res = await post(app().server, rpc('tools/list'));
      const reports = res.body.result.tools.find((tool: { name: string }) => tool.name === 'reports');
      expect(reports.outputSchema).toEqual({ type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] });
    });

    it('sends matching data as structuredContent and as JSON text', async () => {
      const answer = await callTool(app().server, 'reports', { action: 'good' });
      expect(answer.result).toMatchObject({ structuredContent: { total: 3 }, content: [{ type: 'text', text: '{"total":3}' }] });
      expect(answer.result.isError).toBeUndefined();
    });

    it("answers a mismatch as the server's fault, never blaming the caller", async () => {
      const answer = await callTool(app().server, 'reports', { action: 'bad' });
      expect(answer.result.isError).toBe(true);
      expect(answer.result.structuredContent).toBeUndefined();
      expect(answer.body).toEqual({
        errorType: 'tool_fault',
        tool: 'reports',
        exception: 'StructuredContentMismatchError',
        message: 'tool "reports" returned structured content its output schema refuses: total: must be an integer',
      });
    });

    it.each(['value', 'content'])('checks the structured content JSON carries (a Date as its ISO string), from %s', async (action) => {
      const answer = await callTool(app().server, 'stamped', { action });
      expect(answer.result.isError).toBeUndefined();
      expect(answer.result.structuredContent).toEqual({ at: '1970-01-01T00:00:00.000Z' });
    });

    it("answers no structured content at all as the server's fault too", async () => {
      const answer = await callTool(app().server, 'reports', { action: 'none' });
      expect(answer.body).toMatchObject({
        errorType: 'tool_fault',
        exception: 'StructuredContentMismatchError',
        message: 'tool "reports" declares an output schema but returned no structured content',
      });
    });

    it('sends an error the tool wrote as MCP content without structured content, unchecked by the output schema', async () => {
      const answer = await callTool(app().server, 'wide', { action: 'refused' });
      expect(answer.result).toMatchObject({ resultType: 'complete', isError: true, content: [{ type: 'text', text: 'not today' }] });
      expect(answer.result).not.toHaveProperty('structuredContent');
    });

    it('names a mismatch inside a union of $ref branches in the branch the data picks', async () => {
      const answer = await callTool(app().server, 'measure', {});
      expect(answer.body).toMatchObject({
        exception: 'StructuredContentMismatchError',
        message: 'tool "measure" returned structured content its output schema refuses: shape.radius: must be >= 0',
      });
    });

    it('names the first five problems of a mismatch, counting them all first', async () => {
      const answer = await callTool(app().server, 'wide', { action: 'numbers' });
      expect(answer.body).toMatchObject({
        exception: 'StructuredContentMismatchError',
        message:
          'tool "wide" returned structured content its output schema refuses (6 problems, the first 5 here): a: must be a string; b: must be a string; c: must be a string; d: must be a string; e: must be a string',
      });
    });
  });
});

import { describe, expect, it } from '@jest/globals';

import { McpResourceTemplate, McpTool, type McpPlainTool, type McpResourceTemplateHandler } from '../../lib/index.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { EchoTool } from '../support/fixture-tools.js';
import { generatedTools } from '../support/generated-tools.js';
import { echoCallOfSize, meta, mirroredHeaders, post, recordEvents, rpc } from '../support/mcp-client.js';
import { accept, callTool as callRound, statePayload } from '../support/mrtr-client.js';
import { ConfirmDeleteTool } from '../support/mrtr-tools.js';
import { useTestApp } from '../support/suite-app.js';
import { createTestApp } from '../support/test-app.js';
import { callTool } from '../support/tool-call.js';

// The fixed and default bounds of SECURITY.md ("Bounds"), each at its edge over HTTP: the last value inside is
// served as usual, the first outside gets the documented answer. Bounds set by an option are tested at a small
// value beside the feature they bound; these use the defaults.

const HEADERS = mirroredHeaders(rpc('tools/call', { name: 'echo' }));

const CEILING = 4_194_304;
const VALUES = 100_000;

/** The count `JsonValueCounter` describes (lib/protocol/json-values.ts), done apart: each `{`, `[` and `,` outside strings. */
function counted(text: string): number {
  let n = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',' || c === '{' || c === '[') n++;
  }
  return n;
}

/** A valid tools/call body counting exactly `values` values (a padding array in _meta). */
function bodyOfValues(values: number): string {
  const make = (k: number) => JSON.stringify(rpc('tools/call', { name: 'echo', arguments: { text: 'a' }, _meta: meta({ 'com.example/pad': new Array(k).fill(0) }) }, 1));
  const base = counted(make(1));
  const body = make(1 + values - base);
  expect(counted(body)).toBe(values);
  return body;
}

describe('default body bounds', () => {
  const app = useTestApp({ providers: [EchoTool] });

  it('serves a body of exactly 4,194,304 bytes on a default mount, and refuses one byte more with 413 + -32600', async () => {
    const at = await post(app().server, echoCallOfSize(CEILING), HEADERS);
    expect(at.status).toBe(200);
    expect(at.body.result.content[0].text.length).toBeGreaterThan(4_000_000);
    const over = await post(app().server, echoCallOfSize(CEILING + 1), HEADERS);
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: `Payload too large: the body exceeds the ${CEILING}-byte limit.` } });
  });

  it('serves a body counting exactly 100,000 JSON values on a default mount, and refuses one value more with 413', async () => {
    const at = await post(app().server, bodyOfValues(VALUES), HEADERS);
    expect(at.status).toBe(200);
    expect(at.body.result.content[0].text).toBe('a');
    const over = await post(app().server, bodyOfValues(VALUES + 1), HEADERS);
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Payload too large: the body holds more than 100000 JSON values.' } });
  });
});

@McpTool({
  name: 'shapes',
  description: 'Takes items.',
  inputSchema: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      note: { type: ['string', 'null'] },
      items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
    },
  },
})
class ShapesTool implements McpPlainTool {
  run(): string {
    return 'ok';
  }
}

const items = (count: number, bad = 1) => Array.from({ length: count }, (_, i) => ({ n: i < bad ? 'x' : 1 }));

describe('detailed-check bounds', () => {
  const app = useTestApp({ providers: [ShapesTool] });

  it('names every problem of arguments holding exactly 10,000 values, and the first only of 10,001', async () => {
    // root + title + note + items array + 2 a item: 4 + 2 × 4998 = 10,000
    const at = await callTool(app().server, 'shapes', { title: 5, note: null, items: items(4998) });
    expect(at.body).toMatchObject({ error: 'invalid_values', invalid_count: 2 });
    expect(at.body).not.toHaveProperty('first_only');
    // root + title + items array + 2 a item: 3 + 2 × 4999 = 10,001
    const over = await callTool(app().server, 'shapes', { title: 5, items: items(4999) });
    expect(over.body).toMatchObject({ error: 'invalid_values', invalid_count: 1, first_only: true });
  });

  it('names every problem up to 1,000 errors, and the first only at 1,001', async () => {
    const at = await callTool(app().server, 'shapes', { items: items(1000, 1000) });
    expect(at.body).toMatchObject({ error: 'invalid_values', invalid_count: 1000 });
    expect(at.body.invalid).toHaveLength(10); // the dispatch gate lists ten
    expect(at.body).not.toHaveProperty('first_only');
    const over = await callTool(app().server, 'shapes', { items: items(1001, 1001) });
    expect(over.body).toMatchObject({ error: 'invalid_values', invalid_count: 1, first_only: true });
  });
});

@McpTool({ name: 'thrower', description: 'Throws an Error of n characters.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } })
class ThrowerTool implements McpPlainTool {
  run(args: { n: number }): string {
    throw new Error('x'.repeat(args.n));
  }
}

@McpResourceTemplate({
  uriTemplate: 'app://{+rest}',
  name: 'app',
  complete: { rest: (value: string) => Array.from({ length: Number(value) }, (_, i) => `v${i}`) },
})
class AppTemplate implements McpResourceTemplateHandler {
  read(uri: string) {
    return `read ${uri.length}`;
  }
}

@McpResourceTemplate({ uriTemplate: 'slow://{a}{b}{c}-{d}/end', name: 'slow' })
class SlowTemplate implements McpResourceTemplateHandler {
  read(uri: string) {
    return `read ${uri.length}`;
  }
}

describe('quoting, URI and completion bounds', () => {
  const app = useTestApp({ providers: [EchoTool, ThrowerTool, AppTemplate, SlowTemplate] });

  it('header binding quotes a header value in at most 80 characters: 78 in full, 79 cut', async () => {
    const full = 'h'.repeat(78);
    const at = await post(app().server, rpc('tools/call', { name: 'echo', arguments: { text: 'a' } }), { 'mcp-name': full });
    expect(at.status).toBe(400);
    expect(at.body.error.code).toBe(-32020);
    expect(at.body.error.message).toContain(`"${full}"`);
    const over = await post(app().server, rpc('tools/call', { name: 'echo', arguments: { text: 'a' } }), { 'mcp-name': `${full}h` });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toContain(`"${'h'.repeat(77)}…"`);
    expect(over.body.error.message).not.toContain('h'.repeat(78));
  });

  it('a tool_fault message carries 300 characters in full; 301 are cut to 300', async () => {
    const at = await callTool(app().server, 'thrower', { n: 300 });
    expect(at.status).toBe(200);
    expect(at.body).toMatchObject({ errorType: 'tool_fault', tool: 'thrower', message: 'x'.repeat(300) });
    const over = await callTool(app().server, 'thrower', { n: 301 });
    expect(over.body.message).toBe(`${'x'.repeat(299)}…`);
    expect(over.body.message).toHaveLength(300);
  });

  it('quotes a method in telemetry with the default bound of 120 characters: 120 in full, 121 cut', async () => {
    const method120 = `x/${'m'.repeat(118)}`;
    const events = await recordEvents(['mcp:wire:reject'], async () => {
      await post(app().server, rpc(method120));
      await post(app().server, rpc(`${method120}m`));
    });
    expect(events.map((e) => (e.message as any).method)).toEqual([method120, `${'x/'}${'m'.repeat(117)}…`]);
  });

  it('matches a URI of 4,096 characters against a template, and none of 4,097 (not found, 400 + -32602)', async () => {
    const at = `app://${'a'.repeat(4096 - 6)}`;
    const read = await post(app().server, rpc('resources/read', { uri: at }));
    expect(read.status).toBe(200);
    expect(read.body.result.contents[0].text).toBe('read 4096');
    const over = await post(app().server, rpc('resources/read', { uri: `${at}a` }));
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe(-32602);
  });

  it('answers a URI that makes a template backtrack promptly (the step bound)', async () => {
    const started = Date.now();
    const res = await post(app().server, rpc('resources/read', { uri: `slow://${'a'.repeat(4000)}-x!/end` }));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toMatch(/^Resource not found: "slow:\/\/a+…"\. Templates: /);
  });

  it('sends 100 completion values with hasMore false, and 100 of 101 with hasMore true', async () => {
    const complete = (value: string) =>
      post(app().server, rpc('completion/complete', { ref: { type: 'ref/resource', uri: 'app://{+rest}' }, argument: { name: 'rest', value } }));
    const at = await complete('100');
    expect(at.status).toBe(200);
    expect(at.body.result.completion).toMatchObject({ total: 100, hasMore: false });
    expect(at.body.result.completion.values).toHaveLength(100);
    const over = await complete('101');
    expect(over.body.result.completion).toMatchObject({ total: 101, hasMore: true });
    expect(over.body.result.completion.values).toHaveLength(100);
  });
});

describe('default page size', () => {
  it('lists 100 tools a page by default', async () => {
    const tools = generatedTools(101);
    const t = await createTestApp({ providers: tools });
    try {
      const first = await post(t.server, rpc('tools/list'));
      expect(first.status).toBe(200);
      expect(first.body.result.tools).toHaveLength(100);
      expect(typeof first.body.result.nextCursor).toBe('string');
      const second = await post(t.server, rpc('tools/list', { cursor: first.body.result.nextCursor }));
      expect(second.body.result.tools).toHaveLength(2); // 101 generated + help
      expect(second.body.result.nextCursor).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

const SECRET = 'old-secret-0123456789-abcdefghijklmnopqrstuvwxyz-OLD';
const MAX_STATE = 1_048_576;

describe('requestState size on opening', () => {
  const app = useTestApp({ providers: [ConfirmDeleteTool], options: { requestState: { secrets: [SECRET] } } });
  const send = (requestState: string) =>
    callRound(app().server, 'confirm_delete', { file: 'x.txt' }, { inputResponses: { confirm: accept({ confirm: true }) }, requestState });

  it('reads a state of exactly 1,048,576 characters (tampered: its tag checked) and refuses one more unread (malformed), 400 + -32602', async () => {
    const at = await send(`v1.${'a'.repeat(MAX_STATE - 47)}.${'A'.repeat(43)}`);
    expect(at.status).toBe(400);
    expect(at.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state', problem: 'tampered' } });
    const over = await send(`v1.${'a'.repeat(MAX_STATE - 46)}.${'A'.repeat(43)}`);
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state', problem: 'malformed' } });
  });
});

@McpTool({
  name: 'stacked',
  description: 'Throws an Error whose stack is n characters.',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
})
class StackedTool implements McpPlainTool {
  run(args: { n: number }): string {
    const error = new Error('short');
    error.stack = 'S'.repeat(args.n);
    throw error;
  }
}

describe('fault stack in the server log', () => {
  it('logs a stack of 16,384 characters in full and cuts one of 16,385 to 16,384', async () => {
    const lines: string[] = [];
    const t = await createTestApp({ providers: [StackedTool], options: { telemetryLogger: 'faults' }, appOptions: { logger: capturingLogger(lines) } });
    try {
      for (const n of [16_384, 16_385]) {
        const answer = await callTool(t.server, 'stacked', { n });
        expect(answer.body.errorType).toBe('tool_fault');
        expect(JSON.stringify(answer.result)).not.toContain('SSSS');
      }
      const stacks = lines.filter((l) => l.startsWith('warn mcp:tool:error')).map((l) => l.split('\n')[1]);
      expect(stacks).toEqual(['S'.repeat(16_384), `${'S'.repeat(16_383)}…`]);
    } finally {
      await t.close();
    }
  });
});

describe('default requestState lifetime', () => {
  it('seals a state that expires 600,000 ms after it was sealed', async () => {
    const t = await createTestApp({ providers: [ConfirmDeleteTool], options: { requestState: { secrets: [SECRET] } } });
    try {
      const before = Date.now();
      const res = await callRound(t.server, 'confirm_delete', { file: 'x.txt' });
      const after = Date.now();
      expect(res.body.result.resultType).toBe('input_required');
      const { exp } = statePayload(res.body.result.requestState);
      expect(exp).toBeGreaterThanOrEqual(before + 600_000);
      expect(exp).toBeLessThanOrEqual(after + 600_000);
    } finally {
      await t.close();
    }
  });
});

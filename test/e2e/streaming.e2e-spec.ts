import http, { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';

import { McpAction, McpPrompt, McpResource, McpTool, type McpContext } from '../../lib/index.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { meta, mirroredHeaders, post, recordEvents, rpc } from '../support/mcp-client.js';
import { callTool, toolCall } from '../support/mrtr-client.js';
import { BadProgressTool, FloodTool, LogsTool, ProgressThenSampleTool, ProgressTool, SlowTool, floods, slowRuns } from '../support/mrtr-tools.js';
import { answerMessages, finalMessage, sseMessages } from '../support/sse.js';
import { useTestApp } from '../support/suite-app.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

const schema = await ProtocolSchema.vendored();
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

/** Expects an SSE answer with the library's stream headers. */
function expectStream(res: { status: number; headers: Record<string, string> }): void {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/event-stream');
  expect(res.headers['x-accel-buffering']).toBe('no');
  expect(res.headers['cache-control']).toBe('no-cache, no-transform');
}

/** Logs 500 messages of 64 KiB in one go, counting how often their data is serialized. */
@McpTool({ name: 'chatty', description: 'Logs a lot.', inputSchema: { type: 'object', properties: {} } })
class ChattyTool {
  run(_args: unknown, ctx: McpContext): { sent: number; serialized: number } {
    let serialized = 0;
    const data = { toJSON: () => (serialized++, 'x'.repeat(64 * 1024)) };
    let sent = 0;
    for (let i = 0; i < 500; i++) if (ctx.log.info(data)) sent++;
    return { sent, serialized };
  }
}

/** Logs from an action: its default logger is `journal.note`. */
@McpTool({ name: 'journal', description: 'Keeps a journal.' })
class JournalTool {
  @McpAction({ description: 'Writes a note.', properties: {} })
  note(_data: unknown, ctx: McpContext) {
    return { sent: ctx.log.info('noted') };
  }

  @McpAction({ description: 'Logs what JSON cannot carry.', properties: {} })
  odd(_data: unknown, ctx: McpContext) {
    const cycle: Record<string, unknown> = { name: 'x'.repeat(2000) };
    cycle.self = cycle;
    return { sent: [ctx.log.info(10n), ctx.log.info(cycle), ctx.log.info(undefined)] };
  }
}

/** Logs as it is got: its default logger is its name. */
@McpPrompt({ name: 'logged_prompt', description: 'Logs as it is got.' })
class LoggedPrompt {
  get(_args: unknown, ctx: McpContext) {
    ctx.log.info('got');
    return 'a logged prompt';
  }
}

/** Logs as it is read: its default logger is its URI. */
@McpResource({ uri: 'journal://today', name: 'today' })
class TodayResource {
  read(ctx: McpContext) {
    ctx.log.info('read');
    return 'today';
  }
}

describe('answers over JSON or SSE: progress, log messages, cancellation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [ProgressTool, BadProgressTool, LogsTool, ProgressThenSampleTool, SlowTool, FloodTool, ChattyTool] });
  });
  afterAll(() => t.close());

  describe('progress', () => {
    it('with a progressToken: SSE, strictly increasing notifications (an equal value is dropped) echoing the token, then the result as the last event', async () => {
      const res = await callTool(t.server, 'progress', {}, { meta: { progressToken: 'progress-test-1' } });
      expectStream(res);
      const messages = sseMessages(res.text);
      expect(messages.map((m) => m.method ?? 'response')).toEqual(['notifications/progress', 'notifications/progress', 'notifications/progress', 'response']);
      expect(messages.slice(0, 3).map((m) => m.params)).toEqual([
        { progressToken: 'progress-test-1', progress: 0, total: 100, message: 'start' },
        { progressToken: 'progress-test-1', progress: 50, total: 100 },
        { progressToken: 'progress-test-1', progress: 100, total: 100, message: 'done' },
      ]);
      for (const m of messages.slice(0, 3)) expect(schema.check('ProgressNotification', m)).toEqual([]);
      const last = messages.at(-1)!;
      expect(schema.check('CallToolResultResponse', last)).toEqual([]);
      expect(JSON.parse((last as any).result.content[0].text)).toEqual({ sent: [true, true, false, false, true] });
    });

    it('names every event `message`, one `data` line each, for clients that dispatch only events named so', async () => {
      const res = await callTool(t.server, 'progress', {}, { meta: { progressToken: 'progress-test-named' } });
      expectStream(res);
      const blocks = res.text.split('\n\n').filter((block) => block !== '' && !block.startsWith(':'));
      expect(blocks).toHaveLength(4);
      for (const block of blocks) expect(block).toMatch(/^event: message\ndata: \{[^\n]*\}$/);
      expect(sseMessages(res.text).map((m) => m.method ?? 'response')).toEqual([...Array(3).fill('notifications/progress'), 'response']);
    });

    it('refuses a progress value or total that is not a finite number, and a message that is no string, with a TypeError, sending nothing', async () => {
      const res = await callTool(t.server, 'bad_progress', {}, { meta: { progressToken: 'bad' } });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.result.content[0].text)).toEqual({ thrown: ['TypeError', 'TypeError', 'TypeError', 'TypeError', 'TypeError'] });
    });

    it('refuses a string progressToken longer than 256 characters, which every notification would repeat (400 + -32602, located); 256 is served', async () => {
      const res = await callTool(t.server, 'progress', {}, { meta: { progressToken: 't'.repeat(257) } });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: -32602,
        message: 'Invalid params for tools/call; at /params/_meta/progressToken, must have at most 256 characters (every progress notification repeats it), got 257.',
        data: {
          errorCount: 1,
          errors: [{ location: '/params/_meta/progressToken', problems: ['must have at most 256 characters (every progress notification repeats it), got 257'] }],
        },
      });
      const fits = await callTool(t.server, 'progress', {}, { meta: { progressToken: 't'.repeat(256) } });
      expect(sseMessages(fits.text)[0]!.params).toMatchObject({ progressToken: 't'.repeat(256) });
    });

    it.each([
      ['2^53, which JSON cannot tell from 2^53+1', String(2 ** 53)],
      ['-(2^53)', String(-(2 ** 53))],
      ['1e400 (Infinity once parsed)', '1e400'],
    ])('refuses a numeric progressToken %s: the notifications could not repeat it exactly (400 + -32602, located)', async (_what, token) => {
      const body = JSON.stringify(rpc('tools/call', { name: 'progress', arguments: {} })).replace('"_meta":{', `"_meta":{"progressToken":${token},`);
      const res = await post(t.server, body, { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'progress' });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32602);
      expect(res.body.error.data.errors[0].location).toBe('/params/_meta/progressToken');
    });

    it('echoes an integer token as an integer', async () => {
      const res = await callTool(t.server, 'progress', {}, { meta: { progressToken: 7 } });
      expect(sseMessages(res.text)[0]!.params).toMatchObject({ progressToken: 7 });
    });

    it('without a progressToken: a plain JSON answer, nothing sent', async () => {
      const res = await callTool(t.server, 'progress', {});
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.result.content[0].text)).toEqual({ sent: [false, false, false, false, false] });
    });

    it('never answers SSE to a client whose Accept excludes text/event-stream', async () => {
      const res = await callTool(t.server, 'progress', {}, { meta: { progressToken: 'p' }, headers: { accept: 'application/json' } });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.result.content[0].text)).toEqual({ sent: [false, false, false, false, false] });
    });

    it.each([
      'application/json, text/event-stream;q=0',
      'application/json, text/event-stream; q=0.000',
      'application/json, */*;q=0',
      'text/event-stream;q=0, */*',
      '*/*;q=0.5, text/event-stream;q=0',
      'application/json, text/event-stream; q = 0',
      'application/json, text/*;q=0, */*',
      'application/json, text/event-stream;q=0, text/*',
    ])('never answers SSE to a client whose Accept gives text/event-stream the weight 0 (%s)', async (accept) => {
      const res = await callTool(t.server, 'progress', {}, { meta: { progressToken: 'p' }, headers: { accept } });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.result.content[0].text)).toEqual({ sent: [false, false, false, false, false] });
    });

    it('answers SSE to a client that sends no Accept, which admits every media type (RFC 9110 §12.5.1)', async () => {
      const res = await callTool(t.server, 'progress', {}, { meta: { progressToken: 'p' }, headers: { accept: null } });
      expectStream(res);
      expect(sseMessages(res.text).map((m) => m.method ?? 'response')).toEqual(['notifications/progress', 'notifications/progress', 'notifications/progress', 'response']);
    });

    it.each([
      'application/json;q=0.9, text/event-stream;q=0.1',
      'text/*;q=0.5',
      'text/event-stream;q=1, */*;q=0',
      'application/json, */*;q=0, text/*',
      'application/json, Text/Event-Stream',
      'application/json, text/event-stream;q=0.5.1',
      'application/json, text/event-stream, text/event-stream;q=0',
      'application/json, */*',
    ])(
      'answers SSE when Accept admits it (%s): the most specific range decides, */* too, case-blind; an unparsable weight counts as 1; a repeated range, its best weight',
      async (accept) => {
        const res = await callTool(t.server, 'progress', {}, { meta: { progressToken: 'p' }, headers: { accept } });
        expectStream(res);
      },
    );

    it('drops notifications rather than buffer them without bound when the client does not read, never the result', async () => {
      floods.length = 0;
      const body = toolCall('flood', {}, { meta: { progressToken: 'flood' } });
      const port = (t.server.address() as AddressInfo).port;
      const text = await new Promise<string>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: mirroredHeaders(body) }, (res) => {
          res.pause(); // a client that reads nothing until the tool is done
          const chunks: Buffer[] = [];
          const resume = async () => {
            for (let i = 0; i < 500 && !floods[0]?.done; i++) await sleep(10);
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
            res.resume();
          };
          void resume();
        });
        req.on('error', reject);
        req.end(JSON.stringify(body));
      });
      const messages = sseMessages(text);
      const progress = messages.filter((m) => m.method === 'notifications/progress').map((m) => (m.params as { progress: number }).progress);
      expect(floods[0]!.sent).toBeLessThan(20_000);
      expect(progress).toHaveLength(floods[0]!.sent);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(JSON.parse((messages.at(-1) as any).result.content[0].text)).toEqual({ sent: floods[0]!.sent });
    });

    it('gives concurrent requests each their own stream', async () => {
      const tokens = ['stream-a', 'stream-b', 'stream-c'];
      const bodies = tokens.map((progressToken) => toolCall('progress', {}, { meta: { progressToken } }));
      const answers = await Promise.all(bodies.map((body) => post(t.server, body)));
      answers.forEach((res, i) => {
        const messages = sseMessages(res.text);
        expect(messages).toHaveLength(4);
        expect(messages.slice(0, 3).map((m) => (m.params as { progressToken: string }).progressToken)).toEqual([tokens[i], tokens[i], tokens[i]]);
        expect(messages.at(-1)!.id).toBe(bodies[i]!.id);
      });
    });
  });

  describe('log level filtering', () => {
    it('sends no notifications/message when the request sets no log level (JSON answer)', async () => {
      const res = await callTool(t.server, 'logs', {});
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.result.content[0].text)).toEqual({ sent: [false, false, false, false] });
    });

    it('sends messages at or above the requested level only, on SSE, before the result', async () => {
      const res = await callTool(t.server, 'logs', {}, { meta: { [LOG_LEVEL]: 'warning' } });
      expectStream(res);
      const messages = sseMessages(res.text);
      expect(messages.slice(0, -1)).toEqual([
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', data: 'warning line', logger: 'custom-logger' } },
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'error line', logger: 'logs' } },
      ]);
      for (const m of messages.slice(0, -1)) expect(schema.check('LoggingMessageNotification', m)).toEqual([]);
      expect(JSON.parse((messages.at(-1) as any).result.content[0].text)).toEqual({ sent: [false, false, true, true] });
    });

    it("sends every level at debug, each message's data as the tool wrote it", async () => {
      const res = await callTool(t.server, 'logs', {}, { meta: { [LOG_LEVEL]: 'debug' } });
      expect(
        sseMessages(res.text)
          .filter((m) => m.method)
          .map((m) => [(m.params as any).level, (m.params as any).data]),
      ).toEqual([
        ['debug', 'debug line'],
        ['info', { step: 'info' }],
        ['warning', 'warning line'],
        ['error', 'error line'],
      ]);
    });

    it.each([
      ['info', [false, true, true, true]],
      ['notice', [false, false, true, true]],
      ['error', [false, false, false, true]],
      ['critical', [false, false, false, false]],
    ])('ranks the levels as RFC 5424 does: at %s, sends debug, info, warning, error as %j', async (level, sent) => {
      const res = await callTool(t.server, 'logs', {}, { meta: { [LOG_LEVEL]: level } });
      const text = res.headers['content-type'].startsWith('text/event-stream')
        ? (sseMessages(res.text).at(-1) as any).result.content[0].text
        : res.body.result.content[0].text;
      expect(JSON.parse(text)).toEqual({ sent });
    });

    it('drops a message while the client falls behind reading without serializing its data', async () => {
      const res = await callTool(t.server, 'chatty', {}, { meta: { [LOG_LEVEL]: 'debug' } });
      const messages = sseMessages(res.text);
      const { sent, serialized } = JSON.parse((messages.at(-1) as any).result.content[0].text);
      expect(messages.filter((m) => m.method === 'notifications/message')).toHaveLength(sent);
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThan(500); // a loop outruns the socket: the rest were dropped
      expect(serialized).toBeLessThanOrEqual(2 * sent); // checked, then written: a dropped message costs nothing
    });

    it('refuses an unknown log level (400 + -32602)', async () => {
      const res = await callTool(t.server, 'logs', {}, { meta: { [LOG_LEVEL]: 'verbose' } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32602);
    });

    it('advertises the logging capability beside tools', async () => {
      const res = await post(t.server, rpc('server/discover'));
      expect(res.body.result.capabilities).toEqual({ tools: { listChanged: true }, logging: {} });
    });
  });

  describe('the final response ends the stream, whatever it is', () => {
    it('an error after a notification is the last SSE event (the status line already said 200)', async () => {
      const res = await callTool(t.server, 'progress_then_sample', {}, { capabilities: {}, meta: { progressToken: 'e' } });
      expectStream(res);
      const messages = sseMessages(res.text);
      expect(messages.map((m) => m.method ?? 'response')).toEqual(['notifications/progress', 'response']);
      expect(schema.check('MissingRequiredClientCapabilityError', messages[1])).toEqual([]);
      expect(messages[1]).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } } });
    });

    it('an input-required result after a notification is the last SSE event', async () => {
      const res = await callTool(t.server, 'progress_then_sample', {}, { meta: { progressToken: 'i' } });
      expectStream(res);
      const last = finalMessage(res);
      expect(schema.check('CallToolResultResponse', last)).toEqual([]);
      expect(last.result.resultType).toBe('input_required');
      expect(Object.keys(last.result.inputRequests)).toEqual(['s']);
      expect(answerMessages(res)).toHaveLength(2);
    });

    it('the same error without a notification is a JSON body with status 400', async () => {
      const res = await callTool(t.server, 'progress_then_sample', {}, { capabilities: {} });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32021);
    });
  });

  describe('cancellation: the client closes the stream', () => {
    /**
     * Calls the slow tool over a raw connection and destroys it: once the first SSE event arrives (with a progress
     * token), or once the tool runs (without one, the answer is still JSON and nothing has been written). Returns
     * what the tool saw, the cancellation events, and how many response writes happened after the client left.
     */
    async function leaveMidCall(progressToken: string | undefined) {
      slowRuns.length = 0;
      const body = toolCall('slow', {}, { meta: { [LOG_LEVEL]: 'debug', ...(progressToken !== undefined && { progressToken }) } });
      const port = (t.server.address() as AddressInfo).port;
      const write = jest.spyOn(ServerResponse.prototype, 'write');
      const end = jest.spyOn(ServerResponse.prototype, 'end');
      const writes = () => write.mock.calls.length + end.mock.calls.length;
      let writesAtAbort = 0;
      let received = '';
      try {
        const events = await recordEvents(['mcp:request:cancelled'], async () => {
          await new Promise<void>((resolve, reject) => {
            const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: mirroredHeaders(body) }, (res) => {
              res.once('data', (chunk: Buffer) => {
                received = chunk.toString('utf8');
                writesAtAbort = writes();
                req.destroy();
                resolve();
              });
            });
            req.on('error', () => undefined);
            if (progressToken === undefined)
              until(() => slowRuns.length > 0, 'the slow tool to run').then(() => {
                writesAtAbort = writes();
                req.destroy();
                resolve();
              }, reject);
            req.end(JSON.stringify(body));
          });
          await until(() => slowRuns[0]?.finished === true, 'the slow tool to finish', 10_000);
          await sleep(20); // any late write would come now
        });
        return { id: body.id, runs: [...slowRuns], events: events.map((e) => e.message), received, writesAfter: writes() - writesAtAbort };
      } finally {
        write.mockRestore();
        end.mockRestore();
      }
    }

    it('mid-stream: aborts the signal, emits mcp:request:cancelled, and writes nothing after', async () => {
      const left = await leaveMidCall('slow-1');
      expect(sseMessages(left.received)[0]).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'slow-1', progress: 1 } });
      expect(left.runs).toEqual([{ aborted: true, progressAfterAbort: false, logEnabledAfterAbort: false, logAfterAbort: false, finished: true }]);
      expect(left.events).toEqual([{ mount: '/mcp', method: 'tools/call', id: left.id, by: 'close' }]);
      expect(left.writesAfter).toBe(0);
      expect((await callTool(t.server, 'progress', {})).status).toBe(200);
    });

    it('a request answered in full, over SSE or JSON, is no cancellation: no mcp:request:cancelled when its stream closes', async () => {
      let answers: { status: number }[] = [];
      const events = await recordEvents(['mcp:request:cancelled'], async () => {
        answers = [await callTool(t.server, 'progress', {}, { meta: { progressToken: 'whole' } }), await callTool(t.server, 'progress', {})];
        await sleep(20);
      });
      expect(answers.map((res) => res.status)).toEqual([200, 200]);
      expect(events).toEqual([]);
    });

    it("before any byte of a JSON answer: the same, and the tool's late result goes nowhere", async () => {
      const left = await leaveMidCall(undefined);
      expect(left.received).toBe('');
      expect(left.runs).toEqual([{ aborted: true, progressAfterAbort: false, logEnabledAfterAbort: false, logAfterAbort: false, finished: true }]);
      expect(left.events).toEqual([{ mount: '/mcp', method: 'tools/call', id: left.id, by: 'close' }]);
      expect(left.writesAfter).toBe(0);
    });
  });
});

describe('log messages of an action, a prompt and a resource read', () => {
  const app = useTestApp({ providers: [JournalTool, LoggedPrompt, TodayResource] });

  it.each([
    ['an action', () => toolCall('journal', { action: 'note' }, { meta: { [LOG_LEVEL]: 'info' } }), 'journal.note'],
    ['a prompt', () => rpc('prompts/get', { name: 'logged_prompt', _meta: meta({ [LOG_LEVEL]: 'info' }) }), 'logged_prompt'],
    ['a resource read', () => rpc('resources/read', { uri: 'journal://today', _meta: meta({ [LOG_LEVEL]: 'info' }) }), 'journal://today'],
  ])("names %s as a message's default logger", async (_what, body, logger) => {
    const res = await post(app().server, body());
    expectStream(res);
    expect(sseMessages(res.text)[0]).toMatchObject({ method: 'notifications/message', params: { level: 'info', logger } });
  });

  it('sends a rendering of data JSON cannot carry (a BigInt, a cycle, undefined), bounded to 1,000 characters, not nothing', async () => {
    const res = await post(app().server, toolCall('journal', { action: 'odd' }, { meta: { [LOG_LEVEL]: 'info' } }));
    const messages = sseMessages(res.text);
    expect(messages.slice(0, 3).map((m) => [m.method, typeof (m.params as { data: unknown }).data])).toEqual([
      ['notifications/message', 'string'],
      ['notifications/message', 'string'],
      ['notifications/message', 'string'],
    ]);
    expect((messages[1]!.params as { data: string }).data).toHaveLength(1000); // bounded
    expect(JSON.parse((messages.at(-1) as any).result.content[0].text)).toEqual({ sent: [true, true, true] });
  });
});

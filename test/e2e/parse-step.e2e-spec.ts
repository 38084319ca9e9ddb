import type { IncomingMessage } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import request from 'supertest';

import { requestRecord } from '../../lib/contracts/request-record.js';
import { ArrivingBodies } from '../../lib/protocol/arriving-bodies.js';
import { EchoTool } from '../support/fixture-tools.js';
import { echoCallOfSize, post, rejectionOf, rpc } from '../support/mcp-client.js';
import { rawRequest, stalledRequest } from '../support/raw-http.js';
import { TEST_ADAPTER, createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/wait.js';

const CEILING = 4096;

const headers: [string, string][] = [
  ['content-type', 'application/json'],
  ['mcp-protocol-version', '2026-07-28'],
  ['mcp-method', 'tools/call'],
  ['mcp-name', 'echo'],
];

describe('the parse step', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], options: { maxBodyBytes: CEILING } });
  });
  afterAll(() => t.close());

  it('serves a body exactly at the ceiling', async () => {
    const body = echoCallOfSize(CEILING);
    const res = await rawRequest(t.server, { headers, body });
    expect(res.status).toBe(200);
    expect((res.body as any).result.content[0].text).toBe(JSON.parse(body).params.arguments.text);
  });

  it('serves a body exactly at the ceiling that arrives after its head (its Content-Length read before the body)', async () => {
    const body = echoCallOfSize(CEILING);
    const res = await rawRequest(t.server, { headers, body, bodyAfterMs: 50 });
    expect(res.status).toBe(200);
    expect((res.body as any).result.content[0].text).toBe(JSON.parse(body).params.arguments.text);
  });

  it('refuses a declared Content-Length over the ceiling before any byte of the body arrives (the header reaches the parse step)', async () => {
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: ${CEILING + 1}\r\n\r\n`;
    // Well inside the read timeout: a parse step that had to read (or wait for) the body would answer nothing yet.
    const raw = await stalledRequest(t.server, head, '', 1500);
    expect(raw).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('refuses a body of more JSON values than maxBodyValues with 413 before parsing it, whatever its shape', async () => {
    const capped = await createTestApp({ providers: [EchoTool], options: { maxBodyValues: 100 } });
    try {
      const shapes = [{ keys: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 1])) }, { list: Array.from({ length: 101 }, () => []) }];
      for (const pad of shapes) {
        let res: Awaited<ReturnType<typeof post>> | undefined;
        const mark = await rejectionOf(async () => (res = await post(capped.server, { ...rpc('tools/call', { name: 'echo', arguments: { text: 'a' } }, 1), pad })));
        expect(res!.status).toBe(413);
        expect(res!.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Payload too large: the body holds more than 100 JSON values.' } });
        expect(mark).toEqual({ rejecter: 'parse-step', reason: 'too_many_values' });
      }
      // As many bytes as values past the bound, every one counted: refused before it is parsed, not -32700.
      expect((await post(capped.server, '['.repeat(101))).status).toBe(413);
      const commasInStrings = await post(capped.server, rpc('tools/call', { name: 'echo', arguments: { text: ',{['.repeat(500) } }, 2));
      expect(commasInStrings.status).toBe(200);
      // Chunked (no Content-Length): counted as it arrives, the read stopped and the connection closed.
      const body = JSON.stringify({ ...rpc('tools/call', { name: 'echo', arguments: { text: 'a' } }, 3), pad: Array.from({ length: 101 }, () => []) });
      let chunked: Awaited<ReturnType<typeof rawRequest>> | undefined;
      const mark = await rejectionOf(
        async () => (chunked = await rawRequest(capped.server, { headers: [...headers, ['Transfer-Encoding', 'chunked'], ['Connection', 'keep-alive']], body })),
      );
      expect(chunked!.status).toBe(413);
      expect(chunked!.headers.connection).toBe('close');
      expect(mark).toEqual({ rejecter: 'parse-step', reason: 'too_many_values' });
    } finally {
      await capped.close();
    }
  });

  it('refuses a body one byte over the ceiling with 413 before parsing it, closing the connection', async () => {
    // A keep-alive client: without one, Node's client asks for the close itself.
    const res = await rawRequest(t.server, { headers: [...headers, ['Connection', 'keep-alive']], body: echoCallOfSize(CEILING + 1) });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(res.body as any).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: `Payload too large: the body exceeds the ${CEILING}-byte limit.` } });
  });

  it('refuses a chunked body (no Content-Length) as soon as it grows over the ceiling', async () => {
    const res = await rawRequest(t.server, { headers: [...headers, ['transfer-encoding', 'chunked']], body: echoCallOfSize(CEILING * 3) });
    expect(res.status).toBe(413);
  });

  it('answers invalid JSON with -32700 and no id', async () => {
    const res = await post(t.server, '{"jsonrpc":"2.0","id":5,"method":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not valid JSON.' } });
  });

  it('answers a body that is not UTF-8 with -32700', async () => {
    const res = await rawRequest(t.server, { headers, body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) });
    expect(res.status).toBe(400);
    expect((res.body as any).error).toEqual({ code: -32700, message: 'Parse error: the body is not valid UTF-8.' });
  });

  it('serves a body that opens with a UTF-8 byte order mark: ignored, as RFC 8259 §8.1 lets a parser do', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(rpc('tools/call', { name: 'echo', arguments: { text: 'bom' } }, 1)))]);
    const res = await rawRequest(t.server, { headers, body });
    expect(res.status).toBe(200);
    expect((res.body as any).result.content).toEqual([{ type: 'text', text: 'bom' }]);
  });

  it('answers an empty body with -32700', async () => {
    const res = await post(t.server, '');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32700);
  });

  it('refuses a batch with -32600 and no id', async () => {
    const res = await post(t.server, JSON.stringify([rpc('server/discover', {}, 1), rpc('tools/list', {}, 2)]));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32600);
    expect(res.body.error.message).toMatch(/batch/);
    expect(res.body).not.toHaveProperty('id');
  });

  it.each([
    ['a number', '42'],
    ['null', 'null'],
    ['a string', '"x"'],
    ['true', 'true'],
  ])('refuses %s as the body with -32600', async (_what, body) => {
    const res = await post(t.server, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32600);
  });

  it('keeps an own "__proto__" key as data and does not pollute prototypes', async () => {
    const res = await post(
      t.server,
      '{"jsonrpc":"2.0","id":1,"method":"server/discover","__proto__":{"polluted":true},"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}',
      {
        'mcp-method': 'server/discover',
        'mcp-protocol-version': '2026-07-28',
      },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(res.status).toBe(200);
  });

  it('proves a body it read free of numbers out of range, so none is looked for again, whatever a string in it spells', async () => {
    const proofs: (true | undefined)[] = [];
    const proved = await createTestApp({ providers: [EchoTool], configure: (app) => app.useGlobalInterceptors(new NumbersInRangeInterceptor(proofs)) });
    try {
      // A string spelling a wide exponent or a long digit run holds no number: proved too (a test of the text was not).
      for (const text of ['plain', '1e400 or 1E+309', '9'.repeat(250)])
        expect((await post(proved.server, rpc('tools/call', { name: 'echo', arguments: { text } }))).status).toBe(200);
      expect(proofs).toEqual([true, true, true]);
    } finally {
      await proved.close();
    }
  });
});

/** A host interceptor noting, for each request the chain let through, whether the parse step proved its numbers in range. */
@Injectable()
class NumbersInRangeInterceptor implements NestInterceptor {
  constructor(private readonly proofs: (true | undefined)[]) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<IncomingMessage & { raw?: IncomingMessage }>();
    this.proofs.push(requestRecord(req.raw ?? req).numbersInRange);
    return next.handle();
  }
}

describe("the parse step beside the host's body parsing", () => {
  it("keeps its own answers with the host's rawBody option on (the host's parser skips the mount)", async () => {
    const t = await createTestApp({ providers: [EchoTool], appOptions: { bodyParser: true, rawBody: true } });
    try {
      const ok = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }));
      expect(ok.status).toBe(200);
      expect(ok.body.result.content).toEqual([{ type: 'text', text: 'hi' }]);
      const batch = await post(t.server, JSON.stringify([rpc('server/discover')]));
      expect(batch.status).toBe(400);
      expect(batch.body.error.code).toBe(-32600);
    } finally {
      await t.close();
    }
  });

  it("serves the request with the host's body parser on (it skips the mount)", async () => {
    const t = await createTestApp({ providers: [EchoTool], appOptions: { bodyParser: true } });
    try {
      const ok = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'parsed' } }));
      expect(ok.status).toBe(200);
      expect(ok.body.result.content).toEqual([{ type: 'text', text: 'parsed' }]);
    } finally {
      await t.close();
    }
  });

  it('reads the body itself whatever its content type', async () => {
    const t = await createTestApp({ providers: [EchoTool], appOptions: { bodyParser: true } });
    try {
      const mark = await rejectionOf(() => request(t.server).post('/mcp').set('content-type', 'text/plain').send('{oops'));
      expect(mark).toEqual({ rejecter: 'parse-step', reason: 'invalid_json' });
    } finally {
      await t.close();
    }
  });

  if (TEST_ADAPTER === 'express') {
    /** A host middleware of its own (not a parser the mount bypasses) that consumes the body before the mount. */
    const consuming = (keep: 'raw' | 'parsed') => (req: IncomingMessage & { rawBody?: Buffer; body?: unknown; _body?: boolean }, _res: unknown, next: () => void) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const bytes = Buffer.concat(chunks);
        if (keep === 'raw') req.rawBody = bytes;
        else [req.body, req._body] = [JSON.parse(bytes.toString('utf8')), true];
        next();
      });
    };

    it("parses the raw bytes a host middleware kept (rawBody), under the mount's own bounds", async () => {
      const t = await createTestApp({ providers: [EchoTool], options: { maxBodyValues: 50, maxBodyBytes: 400 }, configure: (app) => app.use(consuming('raw')) });
      try {
        const ok = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'kept raw' } }));
        expect(ok.body.result.content).toEqual([{ type: 'text', text: 'kept raw' }]);
        expect((await rawRequest(t.server, { headers, body: echoCallOfSize(400) })).status).toBe(200);
        expect(await rejectionOf(() => rawRequest(t.server, { headers, body: echoCallOfSize(401) }))).toEqual({ rejecter: 'parse-step', reason: 'body_too_large' });
        const mark = await rejectionOf(() => post(t.server, { ...rpc('tools/list'), pad: Array.from({ length: 60 }, () => 0) }));
        expect(mark).toEqual({ rejecter: 'parse-step', reason: 'too_many_values' });
      } finally {
        await t.close();
      }
    });

    it('takes the body a host middleware parsed already', async () => {
      const t = await createTestApp({ providers: [EchoTool], configure: (app) => app.use(consuming('parsed')) });
      try {
        const ok = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'parsed by the host' } }));
        expect(ok.body.result.content).toEqual([{ type: 'text', text: 'parsed by the host' }]);
      } finally {
        await t.close();
      }
    });
  }
});

describe('the parse step and a content or transfer coding', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool] });
  });
  afterAll(() => t.close());

  const body = JSON.stringify(rpc('tools/call', { name: 'echo', arguments: { text: 'plain' } }, 'ce'));

  it.each(['gzip', 'br', 'deflate', 'x-unknown', 'identity, gzip'])('refuses a body sent with Content-Encoding: %s with 415 + -32600 before reading it', async (coding) => {
    const mark = await rejectionOf(async () => {
      const res = await rawRequest(t.server, { headers: [...headers, ['content-encoding', coding]], body });
      expect(res.status).toBe(415);
      expect(res.headers['accept-encoding']).toBe('identity');
      expect(res.headers['connection']).toBe('close');
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: `Unsupported media type: this server reads bodies without a content coding; send the body uncompressed, without Content-Encoding (got "${coding}").`,
        },
      });
    });
    expect(mark).toEqual({ rejecter: 'parse-step', reason: 'unsupported_content_encoding' });
  });

  it('refuses a coding on a second Content-Encoding line (one list with the first, RFC 9110 §5.3) with 415, not only one on the first', async () => {
    const mark = await rejectionOf(async () => {
      const res = await rawRequest(t.server, {
        headers: [...headers, ['content-encoding', 'identity'], ['content-encoding', 'gzip']],
        body,
      });
      expect(res.status).toBe(415);
      expect((res.body as { error: { message: string } }).error.message).toMatch(/\(got "identity, gzip"\)\.$/);
    });
    expect(mark).toEqual({ rejecter: 'parse-step', reason: 'unsupported_content_encoding' });
  });

  it.each(['identity', 'Identity', '', 'identity, Identity'])('reads a body sent with Content-Encoding: "%s" (no coding)', async (coding) => {
    const res = await rawRequest(t.server, { headers: [...headers, ['content-encoding', coding]], body });
    expect(res.status).toBe(200);
    expect((res.body as { result: { content: unknown } }).result.content).toEqual([{ type: 'text', text: 'plain' }]);
  });

  it.each([
    ['foo, chunked', [['transfer-encoding', 'foo, chunked']]],
    [
      'gzip, chunked on two lines',
      [
        ['transfer-encoding', 'gzip'],
        ['transfer-encoding', 'chunked'],
      ],
    ],
  ] as const)('refuses a body sent with Transfer-Encoding: %s (a coding Node does not undo) with 501 + -32600', async (_te, lines) => {
    const mark = await rejectionOf(async () => {
      const res = await rawRequest(t.server, { headers: [...headers, ...lines], body });
      expect(res.status).toBe(501);
      expect(res.headers['connection']).toBe('close');
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32600, message: expect.stringMatching(/^Not implemented: this server reads request bodies with no transfer coding but chunked; /) },
      });
    });
    expect(mark).toEqual({ rejecter: 'parse-step', reason: 'unsupported_transfer_encoding' });
  });

  it('reads a chunked body', async () => {
    const res = await rawRequest(t.server, { headers: [...headers, ['transfer-encoding', 'Chunked']], body });
    expect(res.status).toBe(200);
    expect((res.body as { result: { content: unknown } }).result.content).toEqual([{ type: 'text', text: 'plain' }]);
  });
});

describe('the parse step under requireJsonContentType', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], options: { requireJsonContentType: true } });
  });
  afterAll(() => t.close());

  const body = JSON.stringify(rpc('tools/call', { name: 'echo', arguments: { text: 'typed' } }, 'ct'));
  const withType = (type: string | undefined): [string, string][] => [...(type === undefined ? [] : [['content-type', type] as [string, string]]), ...headers.slice(1)];

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON ;charset=UTF-8'])('reads a body sent as %s', async (type) => {
    const res = await rawRequest(t.server, { headers: withType(type), body });
    expect(res.status).toBe(200);
    expect((res.body as { result: { content: unknown } }).result.content).toEqual([{ type: 'text', text: 'typed' }]);
  });

  it.each([
    ['text/plain', 'got "text/plain"'],
    ['application/x-www-form-urlencoded', 'got "application/x-www-form-urlencoded"'],
    ['multipart/form-data; boundary=x', 'got "multipart/form-data; boundary=x"'],
    ['application/jsonp', 'got "application/jsonp"'],
    [undefined, 'got no Content-Type'],
  ])('refuses a body sent as %s with 415 + -32600 before reading it, naming the type to send', async (type, got) => {
    const mark = await rejectionOf(async () => {
      const res = await rawRequest(t.server, { headers: withType(type), body });
      expect(res.status).toBe(415);
      expect(res.headers['accept']).toBe('application/json');
      expect(res.headers['connection']).toBe('close');
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: `Unsupported media type: send the body with Content-Type: application/json (${got}).` },
      });
    });
    expect(mark).toEqual({ rejecter: 'parse-step', reason: 'unsupported_media_type' });
  });

  it('is off by default: a text/plain body is read as JSON', async () => {
    const lenient = await createTestApp({ providers: [EchoTool] });
    try {
      const res = await rawRequest(lenient.server, { headers: withType('text/plain'), body });
      expect(res.status).toBe(200);
    } finally {
      await lenient.close();
    }
  });
});

describe('bodies arriving together, past maxArrivingBytes', () => {
  const BOUND = 64 * 1024;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], options: { maxArrivingBytes: BOUND } });
  });
  afterAll(() => t.close());

  it('refuses the upload whose last bytes arrived least recently (408 + -32600) to make room for another, never that one, which is served', async () => {
    const arriving = t.app.get(ArrivingBodies, { strict: false });
    const sent = 40 * 1024;
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}Content-Length: 300000\r\n\r\n`;
    // Stops after 40 KiB of its 300,000 bytes; read until the server closes (the read timeout is 10 s away).
    const stalled = stalledRequest(t.server, head, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"pad":"${'x'.repeat(sent - 60)}`, 8_000);
    await until(() => arriving.held >= sent - 60, 'the stalled upload read', 5_000);
    // 200 kB arriving past the bound (each chunk moves it to the back of the line): the stalled one makes room.
    const served = await post(t.server, echoCallOfSize(200_000), Object.fromEntries(headers));
    expect(served.status).toBe(200);
    const raw = await stalled;
    const [statusLine] = raw.split('\r\n');
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { error: { code: number; message: string } };
    expect([statusLine, body.error.code]).toEqual(['HTTP/1.1 408 Request Timeout', -32600]);
    expect(body.error.message).toBe(
      `Request timeout: the server was reading more than ${BOUND} bytes of bodies at once, and this body's last bytes had arrived least recently; send it again.`,
    );
    expect(arriving.held).toBe(0);
  }, 15_000);
});

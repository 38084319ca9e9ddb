import { execFile } from 'node:child_process';
import { connect, type AddressInfo } from 'node:net';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { LINGERING_CLOSE } from '../../lib/response/lingering-close.js';
import { EchoTool } from '../support/fixture-tools.js';
import { mirroredHeaders, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const CEILING = 4 * 1024 * 1024;
const TOOLS_CALL = rpc('tools/call', { name: 'echo', arguments: { text: '' } }, 1);

/**
 * A fetch() client (undici, what the official clients use) in its own process, so it uploads while the server
 * answers, as over a network: it POSTs `times` bodies of `size` bytes and reports each outcome (status and body,
 * or the error code).
 */
const CLIENT = `
const [url, size, times, headers] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3]), JSON.parse(process.argv[4])];
const base = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: '' } } });
const body = base.replace('"text":""', '"text":"' + 'x'.repeat(size - base.length) + '"');
const outcomes = [];
for (let i = 0; i < times; i++) {
  try {
    const res = await fetch(url, { method: 'POST', headers, body });
    outcomes.push({ status: res.status, body: await res.json() });
  } catch (error) {
    outcomes.push({ error: error.cause?.code ?? String(error) });
  }
}
console.log(JSON.stringify(outcomes));
`;

/**
 * A client that asks to close the connection after the answer (`agent: false` sends `Connection: close`), in its
 * own process: it uploads `size` bytes in 64 KiB writes (with a Content-Length, or chunked when told) and reports
 * the status and body, or the error code.
 */
const CLOSING_CLIENT = `
import http from 'node:http';
const [url, size, headers, framing] = [new URL(process.argv[1]), Number(process.argv[2]), JSON.parse(process.argv[3]), process.argv[4]];
const length = framing === 'chunked' ? {} : { 'content-length': String(size) };
const req = http.request(url, { method: 'POST', agent: false, headers: { ...headers, ...length } }, (res) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => (text += chunk));
  res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, connection: res.headers.connection, body: JSON.parse(text) })));
});
req.on('error', (error) => console.log(JSON.stringify({ error: error.code ?? String(error) })));
const chunk = Buffer.alloc(64 * 1024, 0x20);
let sent = 0;
const pump = () => {
  while (sent < size) {
    const next = chunk.subarray(0, Math.min(chunk.length, size - sent));
    sent += next.length;
    if (!req.write(next)) return void req.once('drain', pump);
  }
  req.end();
};
pump();
`;

/** An upload the mount refuses must get its refusal and JSON-RPC body, not a reset under the upload (EPIPE). */
describe('a refused upload', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool] });
    url = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => t.close());

  it.each([
    ['just over the ceiling', CEILING + 1024],
    ['four times the ceiling', 4 * CEILING],
  ])(
    'gets its 413 and the JSON-RPC error every time, %s',
    async (_what, size) => {
      const headers = { ...mirroredHeaders(TOOLS_CALL), accept: 'application/json, text/event-stream' };
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CLIENT, url, String(size), '12', JSON.stringify(headers)]);
      const refusal = { jsonrpc: '2.0', error: { code: -32600, message: `Payload too large: the body exceeds the ${CEILING}-byte limit.` } };
      expect(JSON.parse(stdout)).toEqual(Array.from({ length: 12 }, () => ({ status: 413, body: refusal })));
    },
    60_000,
  );

  it('serves the next request right after', async () => {
    const res = await fetch(url, { method: 'POST', headers: mirroredHeaders(rpc('tools/list', {}, 2)), body: JSON.stringify(rpc('tools/list', {}, 2)) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool: { name: string }) => tool.name)).toContain('echo');
  });

  it.each(['content-length', 'chunked'])(
    'gets the refusal (403, origin check) with its JSON-RPC body, not a reset under a 2 MB upload (%s)',
    async (framing) => {
      const headers = { ...mirroredHeaders(TOOLS_CALL), origin: 'http://evil.example' };
      for (let i = 0; i < 3; i++) {
        const { stdout } = await promisify(execFile)(process.execPath, [
          '--input-type=module',
          '-e',
          CLOSING_CLIENT,
          url,
          String(2 * 1024 * 1024),
          JSON.stringify(headers),
          framing,
        ]);
        expect(JSON.parse(stdout)).toMatchObject({ status: 403, connection: 'close', body: { jsonrpc: '2.0', error: { code: -32600 } } });
      }
    },
    60_000,
  );

  /**
   * Sends the head of a POST and 10 of its 1,000 bytes on a keep-alive connection, and no more; resolves with what
   * came back and how long after the answer the server closed the connection.
   */
  function stalledUpload(path: string, extra: string): Promise<{ answer: string; closedAfterMs: number }> {
    return new Promise((resolve, reject) => {
      const socket = connect((t.server.address() as AddressInfo).port, '127.0.0.1');
      let answer = '';
      let answeredAt = 0;
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => ((answer += chunk), (answeredAt ||= Date.now())));
      socket.on('error', reject);
      socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - answeredAt }));
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n${extra}\r\n${'x'.repeat(10)}`);
    });
  }

  it(`closes a keep-alive connection whose refused body stops arriving, once no byte came for ${LINGERING_CLOSE.idleMs} ms`, async () => {
    const [refused, fallthrough] = await Promise.all([stalledUpload('/mcp', 'Origin: http://evil.example\r\n'), stalledUpload('/mcp/below', '')]);
    expect(refused.answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(fallthrough.answer).toMatch(/^HTTP\/1\.1 404 /);
    for (const { answer, closedAfterMs } of [refused, fallthrough]) {
      expect(answer.toLowerCase()).not.toContain('connection: close'); // answered keep-alive: the body was still arriving
      expect(closedAfterMs).toBeGreaterThanOrEqual(LINGERING_CLOSE.idleMs - 500);
      expect(closedAfterMs).toBeLessThan(LINGERING_CLOSE.idleMs + 3000);
    }
  }, 20_000);
});

describe('a refused upload answered Connection: close, its body still arriving past writeStallTimeoutMs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [EchoTool], options: { writeStallTimeoutMs: 500 } });
  });
  afterAll(() => t.close());

  it('is read to its end and the connection closed after it: the client took the answer, so the stall bound does not cut it', async () => {
    const socket = connect((t.server.address() as AddressInfo).port, '127.0.0.1');
    let answer = '';
    let [sent, lastByteAt] = [0, 0];
    let failure: string | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (failure = error.code));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    socket.write(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n' +
        'x'.repeat(10),
    );
    // The other 30 bytes a byte every 50 ms: 1.5 s, three times the stall bound.
    for (let i = 0; i < 30; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!socket.writable) break;
      socket.write('x');
      [sent, lastByteAt] = [sent + 1, Date.now()];
    }
    const closedAt = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(failure).toBeUndefined();
    expect(sent).toBe(30);
    expect(closedAt).toBeGreaterThanOrEqual(lastByteAt);
  }, 20_000);
});

import { describe, expect, it } from '@jest/globals';

import { McpTool } from '../../lib/index.js';
import { mirroredHeaders, rpc } from '../support/mcp-client.js';
import { exchange, parseAnswer, requestBytes } from '../support/raw-exchange.js';
import { useTestApp } from '../support/suite-app.js';
import { TEST_ADAPTER } from '../support/test-app.js';

// docs/wire-checks.md "What Node answers itself": malformed HTTP the host's server refuses before the mount sees it.
// Each case carries a well-formed tools/call, so a request that reached the mount would run the tool.

let runs = 0;

@McpTool({ name: 'count', description: 'Counts its runs.', inputSchema: { type: 'object', properties: {}, additionalProperties: false } })
class CountTool {
  run(): string {
    runs += 1;
    return String(runs);
  }
}

const body = Buffer.from(JSON.stringify(rpc('tools/call', { name: 'count', arguments: {} })));
const mirrored = Object.entries(mirroredHeaders(JSON.parse(body.toString()))) as [string, string][];
const host: [string, string] = ['Host', '127.0.0.1'];
const length: [string, string] = ['Content-Length', String(body.length)];

/** A POST to the mount with these header lines around the tools/call body (or `framed`, for a chunked case). */
const request = (headers: [string, string][], framed: Buffer = body): Buffer => requestBytes('POST', '/mcp', headers, framed);

/** `bytes` with its request line replaced. */
const withRequestLine = (line: string, bytes: Buffer): Buffer => Buffer.concat([Buffer.from(line), bytes.subarray(bytes.indexOf('\r\n'))]);

/** The malformed requests and Node's status for each; `parser`: refused by Node's HTTP parser (it closes the connection). */
const CASES: { name: string; bytes: Buffer; status: number; parser: boolean }[] = [
  { name: 'an Expect header other than 100-continue', bytes: request([host, ...mirrored, ['Expect', 'a-bit-more'], length]), status: 417, parser: false },
  { name: 'an HTTP/1.1 request without Host', bytes: request([...mirrored, length]), status: 400, parser: false },
  { name: 'a control byte in a header value', bytes: request([host, ...mirrored, ['X-Note', 'a\u0001b'], length]), status: 400, parser: true },
  { name: "a space before a header's colon", bytes: request([host, ...mirrored, ['X-Note ', 'b'], length]), status: 400, parser: true },
  { name: 'a malformed request line', bytes: withRequestLine('POST /mcp HTTP/9.9x', request([host, ...mirrored, length])), status: 400, parser: true },
  { name: 'two Content-Length values', bytes: request([host, ...mirrored, ['Content-Length', '3'], length]), status: 400, parser: true },
  { name: 'Content-Length beside Transfer-Encoding', bytes: request([host, ...mirrored, ['Transfer-Encoding', 'chunked'], length]), status: 400, parser: true },
  {
    name: 'a malformed chunk',
    bytes: request([host, ...mirrored, ['Transfer-Encoding', 'chunked']], Buffer.from(`zz\r\n${body}\r\n0\r\n\r\n`)),
    status: 400,
    parser: true,
  },
];

describe('what Node answers itself (before the mount sees a request)', () => {
  const app = useTestApp({ providers: [CountTool] });

  it('serves the well-formed request every case derives from', async () => {
    const before = runs;
    const { raw } = await exchange(app().server, request([host, ...mirrored, length, ['Connection', 'close']]));
    const answer = parseAnswer(raw);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString()).result.content[0].text).toBe(String(before + 1));
  });

  it.each(CASES)('$name: answered $status with no JSON-RPC body, and no tool runs', async ({ bytes, status, parser }) => {
    const before = runs;
    // Node may keep the connection of an answered (not unparsable) request open: stop at its empty chunked body.
    const { raw, closed } = await exchange(app().server, bytes, 5_000, (received) => !parser && received.includes('\r\n0\r\n\r\n'));
    const answer = parseAnswer(raw);
    expect(answer.status).toBe(status);
    if (parser) expect(closed).toBe(true);
    const text = answer.body.toString();
    expect(text).not.toContain('jsonrpc');
    if (parser && TEST_ADAPTER === 'fastify') expect(JSON.parse(text)).toEqual({ error: 'Bad Request', message: 'Client Error', statusCode: 400 });
    else expect(text).toBe('');
    expect(runs).toBe(before);
  });
});

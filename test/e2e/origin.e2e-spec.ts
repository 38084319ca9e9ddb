import { connect, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';

import { McpAuthDecision, type McpModuleOptions } from '../../lib/index.js';
import { openMountWarning } from '../../lib/wire/open-mount-warning.js';
import { mirroredHeaders, post, rejectionOf, rpc } from '../support/mcp-client.js';
import { rawRequest, type HeaderLine, type RawResponse } from '../support/raw-http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** A `server/discover` POST (the conformance probe's body) with the given extra header lines, sent raw. */
function discover(t: TestApp, lines: HeaderLine[] = [], connectTo?: string): Promise<RawResponse> {
  const body = rpc('server/discover');
  return rawRequest(t.server, { headers: [...Object.entries(mirroredHeaders(body)), ...lines], body: JSON.stringify(body), connectTo });
}

const portOf = (t: TestApp) => (t.server.address() as AddressInfo).port;

/** Expects an origin-check refusal: the status, an id-less JSON-RPC error envelope, and the rejection mark. */
async function expectRefused(send: () => Promise<RawResponse>, status: number, reason: string): Promise<void> {
  let res!: RawResponse;
  const mark = await rejectionOf(async () => (res = await send()));
  expect({ status: res.status, mark }).toEqual({ status, mark: { rejecter: 'origin-check', reason } });
  const body = res.body as { jsonrpc: string; id?: unknown; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe('2.0');
  expect('id' in body).toBe(false);
  expect(body.error.code).toBe(-32600);
  expect(body.error.message).toMatch(/^(Forbidden|Bad request): [^\n]*\.$/);
}

/** Expects a long `header` value refused with `reason`, the refusal quoting it cut to 100 characters. */
async function expectLongValueCut(t: TestApp, header: string, reason: string): Promise<void> {
  const value = `evil${'a'.repeat(3000)}.example.com`;
  let res!: RawResponse;
  await expectRefused(async () => (res = await discover(t, [[header, header === 'Origin' ? `https://${value}` : value]])), 403, reason);
  const message = (res.body as { error: { message: string } }).error.message;
  expect(message).toContain(`evil${'a'.repeat(80)}`);
  expect(message).not.toContain('a'.repeat(100));
}

async function expectServed(send: () => Promise<RawResponse>): Promise<void> {
  const res = await send();
  expect({ status: res.status, error: (res.body as { error?: unknown }).error }).toEqual({ status: 200, error: undefined });
}

describe('origin check without allowedOrigins, on loopback (DNS-rebinding protection on by default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("serves a request without Origin whose Host is the server's own 127.0.0.1:PORT", async () => {
    await expectServed(() => discover(t));
  });

  it.each(['localhost', '127.0.0.1', '[::1]'])('serves Origin http://%s:PORT, a loopback origin', async (host) => {
    await expectServed(() => discover(t, [['Origin', `http://${host}:${portOf(t)}`]]));
  });

  it.each(['http://evil.example.com', 'null', 'http://localhost.evil.example.com', 'http://127.0.0.1.evil.example.com', `http://localhost:3000/path`, 'file://'])(
    'refuses Origin %s with 403 and an id-less JSON-RPC error',
    async (origin) => {
      await expectRefused(() => discover(t, [['Origin', origin]]), 403, 'forbidden_origin');
    },
  );

  it.each([
    ['Origin', 'forbidden_origin'],
    ['Host', 'forbidden_host'],
  ])('quotes a long refused %s value cut to 100 characters', async (header, reason) => {
    await expectLongValueCut(t, header, reason);
  });

  it('refuses an empty Origin header: present, so checked, and no loopback origin', async () => {
    await expectRefused(() => discover(t, [['Origin', '']]), 403, 'forbidden_origin');
  });

  it.each(['localhost:PORT', '127.0.0.1:PORT', '[::1]:PORT', 'LOCALHOST:PORT', 'localhost', '127.0.0.2:PORT'])('serves Host %s, a loopback name', async (host) => {
    await expectServed(() => discover(t, [['Host', host.replace('PORT', String(portOf(t)))]]));
  });

  it.each(['evil.example.com', 'evil.example.com:PORT', 'localhost.evil.example.com:PORT', '127.0.0.1.nip.io:PORT', '127.999.0.1:PORT', '[::2]:PORT'])(
    'refuses a spoofed Host %s with 403 (sent raw)',
    async (host) => {
      await expectRefused(() => discover(t, [['Host', host.replace('PORT', String(portOf(t)))]]), 403, 'forbidden_host');
    },
  );

  it('refuses the conformance rebinding probe (spoofed Host and Origin) with a 4xx, and serves the real host and origin', async () => {
    const evil = await discover(t, [
      ['Host', 'evil.example.com'],
      ['Origin', 'http://evil.example.com'],
    ]);
    expect(evil.status).toBeGreaterThanOrEqual(400);
    expect(evil.status).toBeLessThan(500);
    const port = portOf(t);
    await expectServed(() =>
      discover(t, [
        ['Host', `127.0.0.1:${port}`],
        ['Origin', `http://127.0.0.1:${port}`],
      ]),
    );
  });

  it('refuses a repeated Origin with 400, even when both lines are loopback origins', async () => {
    const origin = `http://localhost:${portOf(t)}`;
    await expectRefused(
      () =>
        discover(t, [
          ['Origin', origin],
          ['Origin', origin],
        ]),
      400,
      'duplicate_origin',
    );
  });

  it('sees a repeated Origin sent by supertest as two lines, and refuses it', async () => {
    const mark = await rejectionOf(() => post(t.server, rpc('server/discover'), { origin: ['http://localhost', 'http://localhost'] }));
    expect(mark).toEqual({ rejecter: 'origin-check', reason: 'duplicate_origin' });
  });

  it('refuses an HTTP/1.0 request without Host, which names no loopback host', async () => {
    const body = JSON.stringify(rpc('server/discover'));
    const head = Object.entries(mirroredHeaders(JSON.parse(body)))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    let answer = '';
    const mark = await rejectionOf(
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(portOf(t), '127.0.0.1', () => socket.end(`POST /mcp HTTP/1.0\r\n${head}Content-Length: ${body.length}\r\n\r\n${body}`));
          socket.setEncoding('utf8');
          socket.on('data', (chunk: string) => (answer += chunk));
          socket.on('end', resolve);
          socket.on('error', reject);
        }),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(mark).toEqual({ rejecter: 'origin-check', reason: 'forbidden_host' });
  });

  it('refuses a repeated Host with 400 (RFC 9112), even when both lines name the server', async () => {
    const host = `127.0.0.1:${portOf(t)}`;
    await expectRefused(
      () =>
        discover(t, [
          ['Host', host],
          ['Host', host],
        ]),
      400,
      'duplicate_host',
    );
  });
});

describe('origin check with allowedOrigins and allowedHosts, on loopback', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      options: { allowedOrigins: ['https://app.example.com', 'null'], allowedHosts: ['mcp.example.com', 'Cased.Example.COM', 'ported.example.com:8443'] },
    });
  });
  afterAll(() => t.close());

  it('serves a listed origin', async () => {
    await expectServed(() => discover(t, [['Origin', 'https://app.example.com']]));
  });

  it('serves Origin null only because the list names it', async () => {
    await expectServed(() => discover(t, [['Origin', 'null']]));
  });

  it.each(['https://evil.example.com', 'https://app.example.com:8443', 'http://app.example.com', 'https://APP.example.com', 'LOOPBACK'])(
    'refuses %s, which the list does not hold exactly (a loopback origin included)',
    async (origin) => {
      const sent = origin === 'LOOPBACK' ? `http://localhost:${portOf(t)}` : origin;
      await expectRefused(() => discover(t, [['Origin', sent]]), 403, 'forbidden_origin');
    },
  );

  it('quotes a long unlisted Origin cut to 100 characters', async () => {
    await expectLongValueCut(t, 'Origin', 'forbidden_origin');
  });

  it.each(['mcp.example.com', 'MCP.Example.COM', 'cased.example.com'])('serves a listed Host %s (compared without case, either side)', async (host) => {
    await expectServed(() => discover(t, [['Host', host]]));
  });

  it.each(['mcp.example.com:443', 'mcp.example.com:8080', 'ported.example.com:8443'])(
    'serves %s: a name listed without a port accepts any port, one listed with a port that port',
    async (host) => {
      await expectServed(() => discover(t, [['Host', host]]));
    },
  );

  it.each(['ported.example.com', 'ported.example.com:443', 'mcp.example.com:', 'mcp.example.com:x', 'evil.mcp.example.com:443'])(
    'refuses the Host %s, which no entry accepts',
    async (host) => {
      await expectRefused(() => discover(t, [['Host', host]]), 403, 'forbidden_host');
    },
  );

  it('still refuses a spoofed Host when the origin is listed', async () => {
    await expectRefused(
      () =>
        discover(t, [
          ['Host', 'evil.example.com'],
          ['Origin', 'https://app.example.com'],
        ]),
      403,
      'forbidden_host',
    );
  });
});

describe('origin check on a request that arrives on a non-loopback address', () => {
  let t: TestApp;
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  beforeAll(async () => {
    if (!external) throw new Error('this test needs a non-loopback IPv4 interface');
    t = await createTestApp({ listenHost: '0.0.0.0' });
  });
  afterAll(() => t.close());

  it('serves any Origin and any Host when no allowedOrigins is configured', async () => {
    await expectServed(() =>
      discover(
        t,
        [
          ['Host', 'mcp.example.com'],
          ['Origin', 'https://anywhere.example.com'],
        ],
        external,
      ),
    );
  });

  it('protects the same server when the request arrives through 127.0.0.1 (what a rebound name reaches)', async () => {
    await expectRefused(() => discover(t, [['Host', 'evil.example.com']], '127.0.0.1'), 403, 'forbidden_host');
    await expectRefused(
      () =>
        discover(
          t,
          [
            ['Host', `127.0.0.1:${portOf(t)}`],
            ['Origin', 'http://evil.example.com'],
          ],
          '127.0.0.1',
        ),
      403,
      'forbidden_origin',
    );
  });

  it('still refuses a repeated Origin', async () => {
    await expectRefused(
      () =>
        discover(
          t,
          [
            ['Origin', 'https://a.example.com'],
            ['Origin', 'https://a.example.com'],
          ],
          external,
        ),
      400,
      'duplicate_origin',
    );
  });
});

describe('origin check on IPv6 loopback ([::1])', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ listenHost: '::1' });
  });
  afterAll(() => t.close());

  it('serves Host [::1]:PORT with Origin http://[::1]:PORT', async () => {
    const port = portOf(t);
    await expectServed(() =>
      discover(t, [
        ['Host', `[::1]:${port}`],
        ['Origin', `http://[::1]:${port}`],
      ]),
    );
  });

  it('refuses a spoofed Host and a foreign origin', async () => {
    await expectRefused(() => discover(t, [['Host', 'evil.example.com']]), 403, 'forbidden_host');
    await expectRefused(() => discover(t, [['Origin', 'http://evil.example.com']]), 403, 'forbidden_origin');
  });
});

describe('the open-mount warning: served beyond loopback with neither allowedOrigins nor auth', () => {
  let warn: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  /** The open-mount warnings given while an app with `options` listened on `listenHost`. */
  async function warningsFor(listenHost: string, options: Partial<McpModuleOptions> = {}): Promise<unknown[]> {
    const t = await createTestApp({ listenHost, options });
    await t.close();
    return warn.mock.calls.map((call: unknown[]) => call[0]).filter((message: unknown) => typeof message === 'string' && message.includes('beyond loopback'));
  }

  it('warns once, naming the mount and the address', async () => {
    expect(await warningsFor('0.0.0.0')).toEqual([openMountWarning('mcp', '0.0.0.0')]);
    expect(openMountWarning('mcp', '0.0.0.0')).toContain('the mount "mcp" is served on 0.0.0.0, beyond loopback');
  });

  it.each([
    ['on loopback', '127.0.0.1', {}],
    ['with allowedOrigins', '0.0.0.0', { allowedOrigins: ['https://app.example.com'] }],
    ['with an auth provider', '0.0.0.0', { auth: { authenticate: () => McpAuthDecision.allow() } }],
  ])('says nothing %s', async (_case, listenHost, options) => {
    expect(await warningsFor(listenHost, options)).toEqual([]);
  });
});

describe('origin check: a 403 names the option that would admit what it refused', () => {
  let bare: TestApp;
  let listing: TestApp;
  beforeAll(async () => {
    bare = await createTestApp();
    listing = await createTestApp({ options: { allowedOrigins: ['https://app.example.com'], allowedHosts: ['mcp.example.com'] } });
  });
  afterAll(async () => {
    await bare.close();
    await listing.close();
  });

  const CASES: [string, () => TestApp, HeaderLine, string][] = [
    [
      'a public Host a same-host proxy forwards, to a server listing none',
      () => bare,
      ['Host', 'mcp.example.com'],
      'Forbidden: the Host header value "mcp.example.com" is not a loopback name, and a request arriving on a loopback address may carry another only when the server lists it in its allowedHosts option.',
    ],
    [
      "a page's Origin, to a server listing none",
      () => bare,
      ['Origin', 'https://app.example.com'],
      'Forbidden: the Origin header value "https://app.example.com" is not a loopback origin, and a request arriving on a loopback address may carry another only when the server lists it in its allowedOrigins option.',
    ],
    [
      'an Origin the server does not list',
      () => listing,
      ['Origin', 'https://app.example.com:8443'],
      'Forbidden: the Origin header value "https://app.example.com:8443" is not allowed; the server admits an origin by listing it in its allowedOrigins option (compared exactly).',
    ],
  ];

  it.each(CASES)('refuses %s in one sentence naming the option', async (_case, app, line, message) => {
    const res = await discover(app(), [line]);
    expect(res.status).toBe(403);
    expect((res.body as { error: { message: string } }).error.message).toBe(message);
  });

  it('admits the same values once the options named list them', async () => {
    await expectServed(() => discover(listing, [['Host', 'mcp.example.com']]));
    await expectServed(() => discover(listing, [['Origin', 'https://app.example.com']]));
    const res = await discover(bare, [['Host', 'mcp.example.com']]);
    expect((res.body as { error: { message: string } }).error.message).toContain('allowedHosts');
  });
});

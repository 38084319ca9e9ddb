// Property-based fuzzing of header sets and paths over raw sockets against the sample app. FUZZ_RUNS=n runs n
// cases per property (CI default below); a failure prints fast-check's seed and path: replay with FUZZ_SEED=… FUZZ_PATH=….
import { describe, expect } from '@jest/globals';
import fc from 'fast-check';

import { rpc } from '../support/mcp-client.js';
import { exchange, headerOf, parseAnswer, requestBytes } from '../support/raw-exchange.js';
import { conformingHeaders, hasControl } from './arbitraries.js';
import { caseBytes, REFUSAL_CAP, sendCase, useFuzzedSample, type FuzzCase } from './fuzz-support.js';

const RUNS = 150;

type Line = readonly [string, string | Buffer];
/** A request being mutated: its header lines and body bytes. */
interface Req {
  headers: Line[];
  body: Buffer;
}
/** One change to the canonical request; `malformed` when the result is not HTTP/1.1. */
interface Mutation {
  what: string;
  malformed?: boolean;
  apply(req: Req): Req;
  [fc.toStringMethod](): string;
}

const BODY = rpc('tools/call', { name: 'weather', arguments: { region: 'eu-west' } }, 'fuzz-1');
const BASE: Req = { headers: [...conformingHeaders(BODY), ['Mcp-Param-Region', 'eu-west']], body: Buffer.from(JSON.stringify(BODY)) };
const ANSWER = 'eu-west: drizzle, 14 °C';
const MIRRORED = ['MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Mcp-Param-Region'];
/** Names a random extra header never takes: framing, and headers whose meaning the other mutations own. */
const RESERVED =
  /^(host|content-length|transfer-encoding|connection|expect|upgrade|te|trailer|content-type|content-encoding|accept|origin|authorization|mcp-.*|keep-alive|proxy-connection)$/i;

const b64 = (text: string | Buffer) => `=?base64?${Buffer.from(text).toString('base64')}?=`;
const setValue = (req: Req, name: string, value: string | Buffer): Req => ({
  ...req,
  headers: req.headers.map(([n, v]) => [n, n.toLowerCase() === name.toLowerCase() ? value : v] as const),
});
/** Adds a header line unless one of that name is there. */
const withOnce = (req: Req, name: string, value: string): Req =>
  req.headers.some(([n]) => n.toLowerCase() === name.toLowerCase()) ? req : { ...req, headers: [...req.headers, [name, value]] };
const mutation = (what: string, apply: (req: Req) => Req, malformed = false): Mutation => ({
  what,
  malformed,
  apply,
  [fc.toStringMethod]: () => JSON.stringify(what), // a counterexample names its mutations, not their code
});

const headerName = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,24}$/).filter((name) => !RESERVED.test(name));
const visible = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,40}[\x21-\x7e])?$/);

/** Changes a conforming server answers exactly as the canonical request. */
const preserving: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(...BASE.headers.map(([name]) => fc.mixedCase(fc.constant(name)))).map((names) => {
    const cased = new Map(BASE.headers.map(([name], i) => [name, names[i]!]));
    return mutation(`names cased ${names.join(' ')}`, (req) => ({ ...req, headers: req.headers.map(([n, v]) => [cased.get(n) ?? n, v] as const) }));
  }),
  fc
    .constantFrom('Mcp-Name', 'Mcp-Param-Region')
    .map((name) => mutation(`${name} as a base64 sentinel`, (req) => setValue(req, name, b64(name === 'Mcp-Name' ? 'weather' : 'eu-west')))),
  fc.tuple(headerName, visible).map(([name, value]) => mutation(`extra ${name}: ${value}`, (req) => ({ ...req, headers: [...req.headers, [name, value]] }))),
  fc.constantFrom('Mcp-Param-Undeclared', 'Mcp-Session-Id', 'Last-Event-ID').map((name) => mutation(`ignored ${name}`, (req) => withOnce(req, name, 'x'))),
  fc.constantFrom('http://localhost', 'http://127.0.0.1:1234', 'http://[::1]').map((origin) => mutation(`Origin ${origin}`, (req) => withOnce(req, 'Origin', origin))),
  fc.integer({ min: 1, max: 64 }).map((size) =>
    mutation(`chunked by ${size}`, (req) => {
      const chunks: Buffer[] = [];
      for (let at = 0; at < req.body.length; at += size) {
        const part = req.body.subarray(at, at + size);
        chunks.push(Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n'));
      }
      const framed = req.headers.some(([n]) => /^transfer-encoding$/i.test(n));
      return framed ? req : { headers: [...req.headers, ['Transfer-Encoding', 'chunked']], body: Buffer.concat([...chunks, Buffer.from('0\r\n\r\n')]) };
    }),
  ),
  fc.constant(mutation('Expect: 100-continue', (req) => withOnce(req, 'Expect', '100-continue'))),
);

/** Base64 sentinels a server must refuse: another value, broken base64, not UTF-8, the wrong case, half a sentinel. */
const badSentinel = fc.oneof(
  fc.string({ minLength: 1, maxLength: 20 }).map(b64),
  fc.constantFrom(
    '=?base64?ZW*jaG8=?=',
    '=?base64?ZWNobw?=',
    '=?base64?ZWNobx==?=',
    '=?BASE64?ZWNobw==?=',
    '=?base64?',
    '=?base64??=',
    '=?base64?//8=?=',
    '?=',
    '=?base64?d2VhdGhlcg==',
    ' weather',
  ),
);

/** Changes whose answer may differ, within the rejection table. */
const anyChange: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: preserving },
  fc.tuple(fc.constantFrom('Mcp-Name', 'Mcp-Param-Region'), badSentinel).map(([name, value]) => mutation(`${name}: ${value}`, (req) => setValue(req, name, value))),
  fc.tuple(fc.constantFrom(...MIRRORED, 'Content-Type', 'Accept', 'Origin', 'Host', 'Authorization'), fc.option(visible, { nil: undefined })).map(([name, value]) =>
    mutation(`${name} twice`, (req) => ({
      ...req,
      headers: [...req.headers, [name, value ?? req.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1] ?? 'http://localhost']],
    })),
  ),
  fc
    .constantFrom(...BASE.headers.map(([name]) => name))
    .map((name) => mutation(`no ${name}`, (req) => ({ ...req, headers: req.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase()) }))),
  fc
    .tuple(fc.constantFrom(...MIRRORED, 'Accept', 'Origin', 'Authorization', 'User-Agent', 'X-Fuzz'), fc.integer({ min: 1_000, max: 40_000 }), fc.constantFrom('x', '=', 'A'))
    .map(([name, size, c]) =>
      mutation(`${name} of ${size} bytes`, (req) => ({
        ...req,
        headers: [...req.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase()), [name, c.repeat(size)]],
      })),
    ),
  fc
    .tuple(
      fc.constantFrom(...BASE.headers.map(([name]) => name), 'X-Fuzz'),
      fc.constantFrom(...Array.from({ length: 32 }, (_, c) => c).filter((c) => c !== 9 && c !== 10 && c !== 13), 127),
    )
    .map(([name, c]) =>
      mutation(`${name} with \\x${c.toString(16)}`, (req) => setValue({ ...req, headers: [...req.headers, ['X-Fuzz', 'x']] }, name, `a${String.fromCharCode(c)}b`), true),
    ),
  fc
    .tuple(fc.constantFrom(...MIRRORED, 'Accept', 'X-Fuzz'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }))
    .map(([name, text]) =>
      mutation(`${name}: UTF-8 ${JSON.stringify(text)}`, (req) =>
        setValue({ ...req, headers: [...req.headers, ['X-Fuzz', 'x']] }, name, Buffer.from(text.replace(/[\r\n]/g, ' '), 'utf8')),
      ),
    ),
  fc
    .oneof(visible, fc.constantFrom('text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x'))
    .map((type) => mutation(`Content-Type: ${type}`, (req) => setValue(req, 'Content-Type', type))),
  fc
    .constantFrom('http://evil.example', 'null', 'http://localhost.evil.example', 'https://127.0.0.1.nip.io')
    .map((origin) => mutation(`Origin ${origin}`, (req) => ({ ...req, headers: [...req.headers, ['Origin', origin]] }))),
  fc
    .constantFrom('evil.example', 'localhost:1', '127.0.0.1:0', '[::1]', 'LOCALHOST')
    .map((host) => mutation(`Host ${host}`, (req) => ({ ...req, headers: [['Host', host], ...req.headers] }))),
);

/** The case for a mutated request; a head over 15 kB may meet the HTTP server's own 431. */
function toCase(mutations: readonly Mutation[]): FuzzCase {
  const req = mutations.reduce((r, m) => m.apply(r), { headers: [...BASE.headers], body: BASE.body });
  const head = requestBytes('POST', '/mcp', req.headers).length;
  const malformed = mutations.some((m) => m.malformed) || req.headers.some(([, v]) => hasControl(v)) || head > 15_000;
  return { headers: req.headers, body: req.body, message: BODY, malformedHttp: malformed };
}

describe('fuzz: header sets and paths against the sample app', () => {
  const { server, itHolds } = useFuzzedSample();

  itHolds(
    'answers the canonical call unchanged under case variants, right base64 sentinels, chunked framing, Expect, loopback Origin and unrelated headers',
    RUNS,
    fc.array(preserving, { minLength: 1, maxLength: 5 }),
    async (mutations) => {
      const { answer, messages } = await sendCase(server(), toCase(mutations));
      const seen = answer.body.toString().slice(0, 500);
      expect({ seen, status: answer.status, content: messages.at(-1)?.result?.content }).toEqual({ seen, status: 200, content: [{ type: 'text', text: ANSWER }] });
    },
  );

  itHolds(
    'answers any header set (duplicates, bad sentinels, huge and control-character values, foreign Origin or Host) within the table, and keeps serving',
    RUNS * 2,
    fc.array(anyChange, { minLength: 1, maxLength: 4 }),
    async (mutations) => {
      const { answer, messages } = await sendCase(server(), toCase(mutations));
      if (answer.status === 200) expect(messages.at(-1)!.result.content).toEqual([{ type: 'text', text: ANSWER }]); // the body never changes
    },
  );

  const segment = fc.oneof(
    { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@%]{0,40}$/) },
    { weight: 1, arbitrary: fc.constantFrom('%ZZ', '%', '%e0%80', '%00', '..', '%2e%2e', '%ZZ'.repeat(4000), 'a'.repeat(12_000)) },
  );
  const target = fc.oneof(
    fc
      .tuple(fc.constantFrom('POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), fc.array(segment, { minLength: 1, maxLength: 3 }))
      .map(([method, s]) => ({ method, path: `/mcp/${s.join('/')}` }))
      .filter(({ path }) => !path.startsWith('/mcp//') && path !== '/mcp/'),
    fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS').map((method) => ({ method, path: '/mcp' })),
  );
  itHolds(
    'answers a path below the mount with the plain-text 404 fallthrough, and another verb at the mount with 405, echoing nothing',
    RUNS,
    target,
    async ({ method, path }) => {
      const { raw } = await exchange(server(), caseBytes({ method, path, headers: [['Content-Type', 'application/json']], body: Buffer.alloc(0) }));
      const answer = parseAnswer(raw);
      const seen = `${method} ${path.slice(0, 200)} → ${raw.toString('latin1').slice(0, 600)}`;
      const expected =
        path === '/mcp'
          ? { seen, status: 405, type: 'application/json', allow: 'POST', code: -32600 }
          : { seen, status: 404, type: 'text/plain; charset=utf-8', allow: undefined, code: undefined };
      const code = path === '/mcp' ? JSON.parse(answer.body.toString()).error?.code : undefined;
      const headLimit = answer.status === 431 && path.length > 8_000; // the HTTP server's own limit on the head
      if (!headLimit) expect({ seen, status: answer.status, type: headerOf(answer, 'content-type'), allow: headerOf(answer, 'allow'), code }).toEqual(expected);
      expect(answer.size).toBeLessThanOrEqual(REFUSAL_CAP);
    },
  );
});

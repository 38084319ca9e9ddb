// Property-based fuzzing of POST bodies over real HTTP against the sample app. FUZZ_RUNS=n runs n cases per
// property (CI default below); a failure prints fast-check's seed and path: replay with FUZZ_SEED=… FUZZ_PATH=….
import { describe, expect } from '@jest/globals';
import fc from 'fast-check';

import { mirroredHeaders, rpc } from '../support/mcp-client.js';
import { acceptArb, conformingHeaders, hasControl, headerValue, hugeString, messageArb, smallJson } from './arbitraries.js';
import { sendCase, useFuzzedSample, type FuzzCase } from './fuzz-support.js';

const RUNS = 100;

const listHeaders = Object.entries(mirroredHeaders(rpc('tools/list')));

/** A case for a body, with header lines encoded as a client puts them on the wire. */
function bodyCase(body: Buffer, headers: readonly (readonly [string, string])[], echoAllowance = 0): FuzzCase {
  const lines = headers.map(([name, value]) => [name, headerValue(value)] as const);
  return { headers: lines, body, malformedHttp: lines.some(([, value]) => hasControl(value)), echoAllowance };
}

/** Bodies nested past the nesting bound (128), as arrays, objects or both. */
const deepJson = fc.tuple(fc.integer({ min: 100, max: 3000 }), fc.constantFrom('[', '{"a":', '{"jsonrpc":"2.0","id":1,"method":"ping","params":')).map(([depth, open]) => {
  const close = open === '[' ? ']' : '}';
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
});

describe('fuzz: bodies (bytes, JSON, JSON-RPC shapes) against the sample app', () => {
  const { server, itHolds } = useFuzzedSample();

  const bytes = fc.oneof(
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 512 }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":', '{', '[', '"', '\ufeff{}'), fc.uint8Array({ maxLength: 64 }))
        .map(([p, b]) => Buffer.concat([Buffer.from(p), b])),
    },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 20_000, maxLength: 100_000 }) },
  );
  itHolds('answers arbitrary bytes with a well-formed answer the rejection table allows, and keeps serving', RUNS, bytes, async (b) => {
    await sendCase(server(), bodyCase(Buffer.from(b), listHeaders));
  });

  const json = fc.oneof(
    { weight: 4, arbitrary: smallJson.map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: fc.constantFrom('{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '1e400', '-0', '[]', '{}', 'null') },
    { weight: 1, arbitrary: hugeString.map((s) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: s })) },
  );
  itHolds(
    'answers arbitrary JSON (deep nesting and prototype keys included) within the table, and keeps serving',
    RUNS,
    fc.tuple(json, fc.boolean()),
    async ([text, mirrored]) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      await sendCase(server(), bodyCase(Buffer.from(text), mirrored ? conformingHeaders(parsed) : listHeaders));
    },
  );

  const headerMode = fc.constantFrom('conforming', 'conforming', 'conforming', 'no mirrors', 'other method');
  itHolds(
    'answers JSON-RPC shapes (requests, notifications, responses, batches, wrong member types, _meta variants) as the table says, and keeps serving',
    RUNS * 2,
    fc.tuple(messageArb, acceptArb, headerMode),
    async ([message, accept, mode]) => {
      let headers = conformingHeaders(message, accept);
      if (mode === 'no mirrors') headers = headers.filter(([name]) => !/^mcp-/i.test(name));
      if (mode === 'other method') headers = headers.map(([name, value]) => [name, /^mcp-method$/i.test(name) ? 'tools/list' : value]);
      const body = Buffer.from(JSON.stringify(message));
      // echo returns its text by design; everything else is bounded.
      const echoed = (message as { params?: { name?: unknown } } | null)?.params?.name === 'echo' ? body.length : 0;
      const { answer } = await sendCase(server(), bodyCase(body, headers, echoed));
      if (Array.isArray(message)) expect(answer.status).toBe(400);
    },
  );
});

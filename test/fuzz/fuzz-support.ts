import type { Server } from 'node:http';

import { beforeAll, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { JSON_RPC_CODES, REJECTION_TABLE } from '../../lib/index.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { post, rpc } from '../support/mcp-client.js';
import { exchange, headerOf, parseAnswer, requestBytes, type WireAnswer } from '../support/raw-exchange.js';
import { useSampleApp } from '../support/sample-app.js';
import { sseMessages } from '../support/sse.js';

/** Cases per property: `FUZZ_RUNS` when set (e.g. FUZZ_RUNS=10000), else the property's CI default. */
export function runs(ciDefault: number): number {
  const asked = Number(process.env.FUZZ_RUNS);
  return Number.isSafeInteger(asked) && asked > 0 ? asked : ciDefault;
}

/** fast-check parameters: `runs()` cases, a random seed unless `FUZZ_SEED` (and `FUZZ_PATH`) replay a reported failure. */
export function fuzzParameters<T>(ciDefault: number): fc.Parameters<T> {
  const seed = Number(process.env.FUZZ_SEED);
  return {
    numRuns: runs(ciDefault),
    ...(Number.isSafeInteger(seed) && { seed }),
    ...(process.env.FUZZ_PATH && { path: process.env.FUZZ_PATH }),
    // fast-check's own report (seed, path, counterexample, cause), its long lines cut: huge values stay readable.
    reporter: (details) => {
      if (!details.failed) return;
      const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      const report = `${fc.defaultReportMessage(details) ?? 'Property failed'}\nCause: ${cause}`;
      throw new Error(report.replace(/[^\n]{2000,}/g, (line) => `${line.slice(0, 2000)}… (${line.length} characters)`));
    },
  };
}

/** A Jest timeout for a property of `ciDefault` cases: 20 s in CI, scaled up when `FUZZ_RUNS` asks for more. */
export function fuzzTimeout(ciDefault: number, msPerCase = 40): number {
  return Math.max(20_000, runs(ciDefault) * msPerCase * 2);
}

/** The largest refusal (JSON-RPC error, `isError` result, transport refusal) in bytes, head included, beyond echoed ids. */
export const REFUSAL_CAP = 8 * 1024;
/** The largest other answer, beyond what a tool returns by design (echo's text, stored tasks). */
export const RESULT_CAP = 32 * 1024;

/** One request as the fuzzer sends it. */
export interface FuzzCase {
  method?: string;
  path?: string;
  /** Header lines exactly as sent; `Host`, `Connection: close` and `Content-Length` are added unless present. */
  headers: readonly (readonly [string, string | Buffer])[];
  body: Buffer;
  /** The message the body carries, when the body is framed (chunked); else the body parsed as JSON. */
  message?: unknown;
  /** Not well-formed HTTP/1.1 (control characters, an oversized head, no Host): the HTTP server itself may refuse it. */
  malformedHttp?: boolean;
  /** Bytes a result (not a refusal) may hold beyond the cap because a tool returns them by design, or `Infinity`. */
  echoAllowance?: number;
}

/** What the server did with one case. */
export interface FuzzOutcome {
  answer: WireAnswer;
  /** JSON-RPC messages of the answer (one for JSON, every event for SSE); empty for 202 and transport refusals. */
  messages: Record<string, any>[];
}

const schema = await ProtocolSchema.vendored();
/** Bidirectional controls (U+202A–U+202E, U+2066–U+2069): quoted raw, they reorder the text a reader sees. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
/** A surrogate half without its pair: JSON carries it escaped, but decoded it is no character a client can re-encode. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a decoded message quotes a lone surrogate anywhere but its `id` (which JSON-RPC has echoed exactly). */
function quotesLoneSurrogate(message: Record<string, unknown>): boolean {
  const stack: unknown[] = Object.entries(message).flatMap(([key, value]) => (key === 'id' ? [] : [value]));
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return true;
    } else if (typeof value === 'object' && value !== null) stack.push(...Object.keys(value), ...Object.values(value));
  }
  return false;
}
const TOKEN_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const METHOD_ERROR_CODES: readonly number[] = Object.values(JSON_RPC_CODES).filter((code) => code !== JSON_RPC_CODES.internalError);

/** Whether `(status, code)` is a rejection table row (either era) or a method error (200/400, a library code but -32603). */
export function allowedError(status: number, code: unknown): boolean {
  const row = REJECTION_TABLE.some((r) => r.code === code && (r.status === status || ('legacyStatus' in r && r.legacyStatus === status)));
  return row || ((status === 200 || status === 400) && METHOD_ERROR_CODES.includes(code as number));
}

/** The request bytes of a case. */
export function caseBytes(c: FuzzCase): Buffer {
  const has = (name: string) => c.headers.some(([n]) => n.toLowerCase() === name);
  const headers = [...c.headers];
  if (!has('host') && !c.malformedHttp) headers.unshift(['Host', '127.0.0.1']);
  if (!has('connection')) headers.push(['Connection', 'close']);
  if (!has('content-length') && !has('transfer-encoding')) headers.push(['Content-Length', String(c.body.length)]);
  return requestBytes(c.method ?? 'POST', c.path ?? '/mcp', headers, c.body);
}

/** The parsed body of a case, when it is JSON. */
function sentMessage(c: FuzzCase): unknown {
  if ('message' in c) return c.message;
  try {
    return JSON.parse(c.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

const readableId = (value: unknown): string | number | undefined => {
  const id = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
};

/** Explains a violation with the request and the answer, so a failure report carries its reproduction. */
function violation(what: string, c: FuzzCase, raw: Buffer): Error {
  const show = (b: Buffer) => {
    const text = b.toString('utf8');
    const head = Buffer.from(text, 'utf8').equals(b) ? JSON.stringify(text.slice(0, 1500)) : `base64:${b.subarray(0, 1500).toString('base64')}`;
    return head + (b.length > 1500 ? ` …(${b.length} bytes)` : '');
  };
  return new Error(`${what}\n  request: ${show(caseBytes(c))}\n  answer:  ${show(raw)}`);
}

/** A JSON-RPC message of an answer: a response with the request's id, a notification, or (legacy) an input request. */
function checkMessage(m: unknown, final: boolean): string | undefined {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return 'a message is not an object';
  const msg = m as Record<string, unknown>;
  if (msg.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if (!final) return schema.check('JSONRPCMessage', msg).length ? 'an SSE event is not a JSON-RPC message' : undefined;
  if ('error' in msg === 'result' in msg) return 'the final message has neither or both of result and error';
  if ('error' in msg) return schema.check('JSONRPCErrorResponse', msg).length ? 'malformed error response' : undefined;
  if (typeof msg.result !== 'object' || msg.result === null || Array.isArray(msg.result)) return 'result is not an object';
  return 'id' in msg ? undefined : 'a result without an id';
}

/**
 * Sends one case on a fresh connection and checks the properties every answer has: it arrives, it is well-formed
 * HTTP; no 5xx; a JSON-RPC error whose status and code the rejection table (or a method error) allows, a JSON-RPC
 * result, 202 and nothing for a notification, or an SSE stream (only if Accept admits it) of JSON-RPC messages
 * ending with the response; the id echoed when it was readable; and a bounded size.
 */
export async function sendCase(server: Server, c: FuzzCase): Promise<FuzzOutcome> {
  // A legacy-era input request waits for the client's answer: stop reading there (the client leaves).
  const waitsForClient = (raw: Buffer) => /\r\n\r\n[\s\S]*data: \{"jsonrpc":"2\.0","id":"mcp-input-[^"]*","method"[^\n]*\n\n\r\n$/.test(raw.toString('latin1'));
  const { raw, closed } = await exchange(server, caseBytes(c), 10_000, waitsForClient);
  const stoppedEarly = !closed && waitsForClient(raw);
  if (!closed && !stoppedEarly) throw violation('no complete answer within 10 s', c, raw);
  let answer: WireAnswer;
  try {
    answer = parseAnswer(raw, { complete: !stoppedEarly });
  } catch (problem) {
    throw violation(`not well-formed HTTP: ${(problem as Error).message}`, c, raw);
  }
  const fail = (what: string) => violation(what, c, raw);
  if (answer.status >= 500) throw fail(`a ${answer.status} answer: no 5xx is in the rejection table`);
  for (const [name] of answer.headers) if (!TOKEN_RE.test(name)) throw fail(`header name ${JSON.stringify(name)}`);

  const sent = sentMessage(c);
  const id = readableId(sent);
  const idBytes = id === undefined ? 0 : JSON.stringify(id).length;
  const type = headerOf(answer, 'content-type') ?? '';
  const text = answer.body.toString('utf8');
  let messages: Record<string, any>[] = [];
  let refusal = false;

  if (answer.status === 202) {
    if (answer.body.length) throw fail('202 with a body');
    const notification = typeof sent === 'object' && sent !== null && !Array.isArray(sent) && 'method' in sent && !('id' in sent);
    if (!notification) throw fail('202 for a message that is not a notification');
  } else if (type.startsWith('text/event-stream')) {
    const accept = c.headers.find(([n]) => n.toLowerCase() === 'accept')?.[1]?.toString() ?? '';
    if (answer.status !== 200) throw fail('an SSE answer without 200');
    const refused = /text\/event-stream\s*;\s*q\s*=\s*0(\.0*)?\s*(,|$)/i.test(accept);
    if (accept && (refused || !/text\/event-stream|text\/\*|\*\/\*/i.test(accept))) throw fail('SSE to a client whose Accept does not admit it');
    try {
      messages = sseMessages(text);
    } catch {
      throw fail('an SSE event whose data is not JSON');
    }
    if (!messages.length) throw fail('an SSE answer without an event');
    const last = messages.at(-1)!;
    messages.forEach((m, i) => {
      const problem = checkMessage(m, i === messages.length - 1 && !stoppedEarly);
      if (problem) throw fail(problem);
    });
    if (stoppedEarly && !(typeof last.method === 'string' && 'id' in last)) throw fail('the stream stopped without its response');
    if (!stoppedEarly && (typeof last.method === 'string' || JSON.stringify(last.id) !== JSON.stringify(id)))
      throw fail('the last SSE event is not the response to the request');
    refusal = 'error' in last || last.result?.isError === true;
  } else if (type.startsWith('application/json') && isJsonRpc(text)) {
    const body = JSON.parse(text) as Record<string, any>;
    messages = [body];
    const problem = checkMessage(body, true);
    if (problem) throw fail(problem);
    if ('error' in body) {
      refusal = true;
      if (!allowedError(answer.status, body.error.code)) throw fail(`status ${answer.status} with code ${body.error.code}: neither a table row nor a method error`);
      if (body.id !== undefined && JSON.stringify(body.id) !== JSON.stringify(id)) throw fail('the error names another id');
    } else {
      if (answer.status !== 200) throw fail(`a result with ${answer.status}`);
      if (JSON.stringify(body.id) !== JSON.stringify(id)) throw fail('the result names another id');
      refusal = body.result.isError === true;
    }
  } else if (c.malformedHttp && (answer.status === 400 || answer.status === 431)) {
    refusal = true; // the HTTP server's own refusal of what is not HTTP/1.1
  } else {
    throw fail(`an answer in no MCP dialect (${answer.status} ${type || 'no content type'})`);
  }

  if (refusal && BIDI.test(text)) throw fail('a refusal quotes a bidirectional control character raw');
  if (refusal && messages.some(quotesLoneSurrogate)) throw fail('a refusal quotes a lone surrogate half unescaped');
  // The id is echoed by every answer, and a progress token by each progress notification.
  const token = (sent as { params?: { _meta?: { progressToken?: unknown } } } | undefined)?.params?._meta?.progressToken;
  const echoed = 2 * idBytes + (token === undefined ? 0 : 8 * JSON.stringify(token).length);
  const cap = (refusal ? REFUSAL_CAP : RESULT_CAP + (c.echoAllowance ?? 0)) + echoed;
  if (answer.size > cap) throw fail(`${answer.size} bytes, over the ${refusal ? 'refusal' : 'result'} cap of ${cap}`);
  return { answer, messages };
}

function isJsonRpc(text: string): boolean {
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === 'object' && body !== null && (body as { jsonrpc?: unknown }).jsonrpc === '2.0';
  } catch {
    return false;
  }
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

/** The sample app under fuzzing: its server, and `itHolds` for one property over it. */
export interface FuzzedSample {
  server: () => Server;
  /**
   * A test that `check` holds for `ciRuns` generated values (FUZZ_RUNS to change), and that after each the server
   * still answers a correct request correctly. `arbitrary` may be built once the app runs (a function).
   */
  itHolds<T>(name: string, ciRuns: number, arbitrary: fc.Arbitrary<T> | (() => fc.Arbitrary<T>), check: (value: T) => Promise<void>, msPerCase?: number): void;
}

/** Runs the sample app for the enclosing `describe`, its tools/list read once as the baseline of `expectHealthy`. */
export function useFuzzedSample(): FuzzedSample {
  const server = useSampleApp();
  let tools: string[] = [];
  beforeAll(async () => {
    tools = await listedTools(server());
  });
  return {
    server,
    itHolds: (name, ciRuns, arbitrary, check, msPerCase) =>
      it(
        name,
        async () => {
          const arb = typeof arbitrary === 'function' ? arbitrary() : arbitrary;
          await fc.assert(
            fc.asyncProperty(arb, async (value) => {
              await check(value);
              await expectHealthy(server(), tools);
            }),
            fuzzParameters(ciRuns),
          );
        },
        fuzzTimeout(ciRuns, msPerCase),
      ),
  };
}

/** The server answers a correct tools/list with the tools it listed before, and no prototype was polluted. */
export async function expectHealthy(server: Server, tools: readonly string[]): Promise<void> {
  const res = await post(server, rpc('tools/list'));
  expect(res.status).toBe(200);
  expect(res.body.result.tools.map((t: { name: string }) => t.name)).toEqual(tools);
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
}

/** The sample's tool names, in listed order (the baseline `expectHealthy` compares with). */
export async function listedTools(server: Server): Promise<string[]> {
  const res = await post(server, rpc('tools/list'));
  expect(res.status).toBe(200);
  return res.body.result.tools.map((t: { name: string }) => t.name);
}

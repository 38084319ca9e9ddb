import fc from 'fast-check';

import { LEGACY_PROTOCOL_VERSIONS, META_KEYS } from '../../lib/index.js';
import { LEGACY_METHODS, MCP_METHODS, REMOVED_METHODS } from '../../lib/methods/mcp-methods.js';
import { VERSION } from '../support/mcp-client.js';

/** The sample's tools. */
export const SAMPLE_TOOLS = ['echo', 'tasks', 'weather', 'delete_note', 'reindex_notes', 'help'] as const;

/** Every method either era serves or the modern era removed, but `subscriptions/listen` (its stream stays open until the client leaves). */
export const METHODS = [...new Set([...MCP_METHODS, ...LEGACY_METHODS, ...REMOVED_METHODS])].filter((method) => method !== 'subscriptions/listen');

export const NOTIFICATIONS = [
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
  'notifications/message',
] as const;

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** A JSON value of some type, for a field that wants another. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noDefaultInfinity: true, noNaN: true }),
  fc.string({ maxLength: 10 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Strings a fuzzer tries: prototype keys, bidi and control characters, lone surrogates, sentinels, and random text. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '\u202e', '\u0000', '\ud800', '..', '%00', '=?base64?AA==?=', 'a\r\nb'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** A large string (20–120 kB once encoded): what must never come back unbounded. */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 20_000, max: 60_000 }), fc.constantFrom('x', 'é', '\u202e', '"', '\u0001'))
  .map(([n, c]) => c.repeat(n));

/** Object keys, prototype keys included. */
export const nastyKey: fc.Arbitrary<string> = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', '', 'a.b', 'text'), fc.string({ maxLength: 12 }));

/** A small JSON value with nasty strings and keys. */
export const smallJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noDefaultInfinity: true, noNaN: true }),
    nastyString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nastyKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** An id: mostly valid (string or integer), sometimes of a wrong type. */
export const idArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, '', 'mcp-input-1')) },
  { weight: 1, arbitrary: fc.oneof(wrongValue, fc.constantFrom(2 ** 53, 1.5, -0)) },
);

const capabilities = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom({}, { elicitation: {} }, { elicitation: {}, sampling: {}, roots: {} }) },
  { weight: 1, arbitrary: wrongValue },
);
const progressToken = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), wrongValue);
const logLevel = fc.oneof(fc.constantFrom(...LOG_LEVELS), nastyString, wrongValue);

/** Marks a key to leave out of a record. */
export const ABSENT = Symbol('absent');
/** `arb`, or (with the given weight out of 10) the key left out. */
export const maybe = <T>(arb: fc.Arbitrary<T>, absentWeight = 3): fc.Arbitrary<T | typeof ABSENT> =>
  fc.oneof({ weight: 10 - absentWeight, arbitrary: arb }, { weight: absentWeight, arbitrary: fc.constant(ABSENT) });
/** Drops the keys marked {@link ABSENT}. */
export const present = (record: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== ABSENT));

/** `_meta` variants: the protocol fields right, each wrong or missing, extra keys, or no `_meta` (a legacy request). */
export const metaArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        [META_KEYS.protocolVersion]: fc.oneof(
          { weight: 8, arbitrary: fc.constant(VERSION) },
          { weight: 1, arbitrary: fc.constantFrom('2025-11-25', 'v999.0.0', '') },
          { weight: 1, arbitrary: wrongValue },
        ),
        [META_KEYS.clientCapabilities]: maybe(capabilities, 1),
        [META_KEYS.clientInfo]: maybe(fc.oneof({ weight: 4, arbitrary: fc.constant({ name: 'fuzz', version: '1' }) }, { weight: 1, arbitrary: wrongValue })),
        [META_KEYS.logLevel]: maybe(logLevel, 7),
        progressToken: maybe(progressToken, 7),
        extra: maybe(smallJson, 8),
      })
      .map(present),
  },
  { weight: 1, arbitrary: fc.constant(ABSENT) },
  { weight: 1, arbitrary: wrongValue },
);

/** Params a method takes, right or wrong. */
function methodParams(method: string): fc.Arbitrary<Record<string, unknown>> {
  const name = (names: readonly string[]) =>
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: nastyString }, { weight: 1, arbitrary: wrongValue });
  const args = fc.oneof({ weight: 4, arbitrary: fc.dictionary(nastyKey, smallJson, { maxKeys: 4 }) }, { weight: 1, arbitrary: wrongValue });
  const uri = fc.oneof(fc.constantFrom('notes://index', 'notes://notes/todo', 'notes://notes/%2e%2e', 'notes://notes/', 'file:///etc/passwd'), nastyString, wrongValue);
  const shapes: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
    'tools/call': fc.record({ name: name(SAMPLE_TOOLS), arguments: maybe(args, 1), requestState: maybe(nastyString, 8), inputResponses: maybe(smallJson, 8) }),
    'resources/read': fc.record({ uri: maybe(uri, 1) }),
    'resources/subscribe': fc.record({ uri: maybe(uri, 1) }),
    'prompts/get': fc.record({ name: name(['review_note']), arguments: maybe(fc.oneof(fc.record({ title: name(['todo', 'ideas']), tone: maybe(nastyString) }), wrongValue)) }),
    'completion/complete': fc.record({
      ref: fc.oneof(
        fc.record({ type: fc.constant('ref/prompt'), name: name(['review_note']) }),
        fc.record({ type: fc.constant('ref/resource'), uri: fc.oneof(fc.constant('notes://notes/{title}'), uri) }),
        wrongValue,
      ),
      argument: fc.oneof(fc.record({ name: name(['title', 'tone']), value: fc.oneof(nastyString, wrongValue) }), wrongValue),
      context: maybe(smallJson, 8),
    }),
    'logging/setLevel': fc.record({ level: maybe(logLevel, 1) }),
    initialize: fc.record({
      protocolVersion: fc.oneof(fc.constantFrom(...LEGACY_PROTOCOL_VERSIONS, VERSION), nastyString),
      capabilities,
      clientInfo: maybe(smallJson, 1),
    }),
  };
  const lists = fc.record({ cursor: maybe(fc.oneof(nastyString, wrongValue), 7) });
  return (Object.hasOwn(shapes, method) ? shapes[method]! : lists).map(present);
}

/** A request body: JSON-RPC 2.0 shapes with each member right, of a wrong type, or missing. */
export const requestArb: fc.Arbitrary<Record<string, unknown>> = fc
  .oneof({ weight: 8, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: nastyString }, { weight: 1, arbitrary: wrongValue })
  .chain((method) =>
    fc.record({
      jsonrpc: fc.oneof({ weight: 12, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.constantFrom('1.0', '2', ABSENT) }, { weight: 1, arbitrary: wrongValue }),
      id: idArb,
      method: fc.constant(method),
      params: fc.oneof(
        { weight: 10, arbitrary: fc.tuple(methodParams(typeof method === 'string' ? method : ''), metaArb).map(([params, m]) => present({ ...params, _meta: m })) },
        { weight: 1, arbitrary: fc.oneof(wrongValue, fc.constant(ABSENT)) },
      ),
      extra: maybe(fc.dictionary(nastyKey, smallJson, { maxKeys: 2 }), 9),
    }),
  )
  .map(({ extra, ...message }) => present({ ...(extra === ABSENT ? {} : (extra as object)), ...message }));

/** A notification (no id). */
export const notificationArb: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    jsonrpc: fc.constant('2.0'),
    method: fc.oneof(fc.constantFrom(...NOTIFICATIONS), nastyString, wrongValue),
    params: maybe(
      fc.oneof(
        fc.tuple(fc.dictionary(nastyKey, smallJson, { maxKeys: 3 }), metaArb).map(([p, m]) => present({ ...p, _meta: m })),
        wrongValue,
      ),
    ),
  })
  .map(present);

/** A response (a client answering a server request, which a modern server never sends). */
export const responseArb: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    jsonrpc: fc.constant('2.0'),
    id: idArb,
    result: maybe(smallJson),
    error: maybe(fc.oneof(fc.record({ code: fc.integer(), message: nastyString }), wrongValue), 7),
  })
  .map(present);

/** Any JSON-RPC shape: a request, a notification, a response, or a batch of them. */
export const messageArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: requestArb },
  { weight: 2, arbitrary: notificationArb },
  { weight: 1, arbitrary: responseArb },
  { weight: 1, arbitrary: fc.array(fc.oneof(requestArb, notificationArb, responseArb), { maxLength: 3 }) },
);

/** Accept values: both types, one, wildcards, a zero weight, none. */
export const acceptArb: fc.Arbitrary<string | typeof ABSENT> = fc.oneof(
  { weight: 5, arbitrary: fc.constant('application/json, text/event-stream') },
  { weight: 1, arbitrary: fc.constantFrom('application/json', 'text/event-stream', '*/*', 'text/*', 'application/json, text/event-stream;q=0', ABSENT) },
);

/** A header value as it goes on the wire: UTF-8 bytes with CR and LF made spaces (they would end the line). */
export function headerValue(value: string): Buffer {
  return Buffer.from(value.replace(/[\r\n]/g, ' '), 'utf8');
}

/** Whether a header value holds a control character other than tab: not HTTP/1.1, which the HTTP server refuses. */
export const hasControl = (value: string | Buffer): boolean => /[\x00-\x08\x0a-\x1f\x7f]/.test(Buffer.isBuffer(value) ? value.toString('latin1') : value);

/** `Mcp-Name` as a conforming client mirrors it: plain when visible ASCII, else the base64 sentinel. */
export const mirrorValue = (value: string): string => (/^[\x20-\x7e\t]*$/.test(value) ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`);

/**
 * Headers for a body: what a conforming client of its era sends (MCP-Protocol-Version from `_meta`, Mcp-Method,
 * Mcp-Name for tools/call, prompts/get and resources/read), plus Content-Type and the given Accept.
 */
export function conformingHeaders(body: unknown, accept: string | typeof ABSENT = 'application/json, text/event-stream'): [string, string][] {
  const headers: [string, string][] = [['Content-Type', 'application/json']];
  if (accept !== ABSENT) headers.push(['Accept', accept]);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return headers;
  const message = body as Record<string, any>;
  const params = typeof message.params === 'object' && message.params !== null ? (message.params as Record<string, any>) : {};
  const m = typeof params._meta === 'object' && params._meta !== null ? (params._meta as Record<string, unknown>) : undefined;
  const version = m?.[META_KEYS.protocolVersion];
  if (m && META_KEYS.protocolVersion in m) headers.push(['MCP-Protocol-Version', typeof version === 'string' ? mirrorValue(version) : JSON.stringify(version)]);
  else headers.push(['MCP-Protocol-Version', '2025-11-25']);
  if (m && typeof message.method === 'string') headers.push(['Mcp-Method', mirrorValue(message.method)]);
  const named = message.method === 'resources/read' ? params.uri : message.method === 'tools/call' || message.method === 'prompts/get' ? params.name : undefined;
  if (m && typeof named === 'string') headers.push(['Mcp-Name', mirrorValue(named)]);
  return headers;
}

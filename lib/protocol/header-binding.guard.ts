import type { IncomingMessage } from 'node:http';

import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';

import { passOn, type ChainStage } from '../contracts/chain-stage.js';
import { type McpRequestRecord, headerLines } from '../contracts/request-record.js';
import type { RejectionReason } from '../errors/rejection-table.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { META_KEYS, MIRRORED_HEADER_DISPLAY, MIRRORED_HEADERS } from '../mcp.constants.js';
import { quoted } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { HeaderAnnotationLookup, type HeaderAnnotation } from './header-annotation-lookup.js';
import { headerIntegerEquals } from './header-integer.js';
import { decodeHeaderValue, plainHeaderValue, type HeaderValue } from './header-value.js';

/** Which body field `Mcp-Name` mirrors, per method; other methods bind no `Mcp-Name`. */
const MCP_NAME_SOURCES: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** A mirrored header: its lower-cased name, its display spelling, and how its value is read. */
interface Mirror {
  readonly header: string;
  readonly display: string;
  readonly read: (raw: string) => HeaderValue;
}

const fixed = (header: keyof typeof MIRRORED_HEADER_DISPLAY, read: Mirror['read']): Mirror => ({ header, display: MIRRORED_HEADER_DISPLAY[header], read });
const PROTOCOL_VERSION = fixed(MIRRORED_HEADERS.protocolVersion, plainHeaderValue);
const METHOD = fixed(MIRRORED_HEADERS.method, plainHeaderValue);
const NAME = fixed(MIRRORED_HEADERS.name, decodeHeaderValue);
const param = (annotation: HeaderAnnotation): Mirror => ({ header: annotation.header, display: `Mcp-Param-${annotation.value}`, read: decodeHeaderValue });

const QUOTE_MAX = 80;

/**
 * The header-binding check: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` must mirror the
 * body, because intermediaries route on headers while this server acts on the body. Each failure is 400 + -32020
 * with `data.header`, quoting what was sent only through `quoted`. Per-header rules: docs/wire-checks.md and
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http.
 * Order: after the protocol-fields check (it compares against the `_meta` that check proved), before the version
 * check (header `2026-07-28` with `_meta` `v999` is a mismatch, not an unsupported version). A header sent for an
 * absent or null argument is refused: an intermediary may have routed on a value the body does not hold.
 * Proven by: test/e2e/header-binding.e2e-spec.ts, test/wire/host-guards.e2e-spec.ts
 * @publicApi
 */
@Injectable()
export class HeaderBindingGuard implements ChainStage {
  /** The rejecter name this check's rejection marks carry. */
  static readonly rejecter = 'header-binding-check' as const;

  constructor(@Inject(HeaderAnnotationLookup) private readonly annotations: HeaderAnnotationLookup) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return passOn(this, context);
  }

  /** Refuses the request (throws a `RejectionException`) or lets it through; never returns false. */
  pass(req: IncomingMessage, record: McpRequestRecord): boolean {
    // Bound without the stages it reads from (on a host route, say), it must fail closed, never pass.
    if (!record.kind) throw new Error('HeaderBindingGuard runs after ParseStepGuard and MessageValidationGuard');
    if (record.era === 'legacy') return true; // the legacy revisions define no header binding
    if (record.kind !== 'request') return true;
    if (!record.meta) throw new Error('HeaderBindingGuard runs after ProtocolFieldsGuard');
    const message = record.message!;
    const method = message.method as string;
    const params = isPlainObject(message.params) ? message.params : {};
    const meta = record.meta;

    expectEqual(req, PROTOCOL_VERSION, String(meta[META_KEYS.protocolVersion]), `params._meta["${META_KEYS.protocolVersion}"]`);
    expectEqual(req, METHOD, method, 'the method');
    const source = Object.hasOwn(MCP_NAME_SOURCES, method) ? MCP_NAME_SOURCES[method] : undefined;
    const name = source === undefined ? undefined : params[source];
    if (typeof name === 'string') expectEqual(req, NAME, name, `params.${source}`);
    if (method === 'tools/call' && typeof name === 'string') {
      for (const annotation of this.annotations.annotationsOf(name)) checkParam(req, annotation, params.arguments);
    }
    return true;
  }
}

function reject(reason: RejectionReason<'header-binding-check'>, mirror: Mirror, message: string): RejectionException {
  return new RejectionException('header-binding-check', reason, `Header mismatch: ${message}`, { data: { header: mirror.display } });
}

/** The header's one value (the singleton-header check ran first), or undefined. */
function headerOf(req: IncomingMessage, mirror: Mirror): string | undefined {
  return headerLines(req).value(mirror.header);
}

/** Reads a present header value, refusing a malformed one. */
function readValue(mirror: Mirror, raw: string): string {
  const read = mirror.read(raw);
  if (!read.ok) throw reject('malformed_header', mirror, `the ${mirror.display} header value ${read.problem}.`);
  return read.value;
}

/** Refuses unless the mirror header holds `expected`, the body value `carried` names (what a missing header should hold). */
function expectEqual(req: IncomingMessage, mirror: Mirror, expected: string, carried: string): void {
  const raw = headerOf(req, mirror);
  if (raw === undefined)
    throw reject('missing_header', mirror, `the ${mirror.display} header is required and missing: it carries ${carried}, ${quoted(expected, QUOTE_MAX)}.`);
  const value = readValue(mirror, raw);
  if (value !== expected)
    throw reject('header_mismatch', mirror, `${mirror.display} header value ${quoted(value, QUOTE_MAX)} does not match body value ${quoted(expected, QUOTE_MAX)}.`);
}

function checkParam(req: IncomingMessage, annotation: HeaderAnnotation, args: unknown): void {
  const mirror = param(annotation);
  const argument = quoted(annotation.path.join('.'), QUOTE_MAX);
  const value = readPath(args, annotation.path);
  const raw = headerOf(req, mirror);
  if (value === undefined || value === null) {
    if (raw !== undefined) throw reject('header_mismatch', mirror, `the ${mirror.display} header is sent but argument ${argument} is absent or null.`);
    return;
  }
  if (!spells(value, annotation.type)) return;
  if (typeof value === 'number' && !Number.isSafeInteger(value))
    throw reject('header_mismatch', mirror, `argument ${argument} is an integer outside ±(2^53−1), which the ${mirror.display} header cannot mirror.`);
  if (raw === undefined) throw reject('missing_header', mirror, `the ${mirror.display} header is required because argument ${argument} is present.`);
  const sent = readValue(mirror, raw);
  const equal = typeof value === 'number' ? headerIntegerEquals(sent, value) : sent === String(value);
  if (!equal)
    throw reject(
      'header_mismatch',
      mirror,
      `${mirror.display} header value ${quoted(sent, QUOTE_MAX)} does not match body value ${quoted(typeof value === 'string' ? value : String(value), QUOTE_MAX)}.`,
    );
}

/** The instance value at a `properties` path, or undefined when something on the way is not an object. */
function readPath(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** Whether a body value has a header spelling under an annotation's type. */
function spells(value: unknown, type: HeaderAnnotation['type']): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer': // `1e400` parses as Infinity: an integer out of range, refused as one
      return typeof value === 'number' && (Number.isInteger(value) || !Number.isFinite(value));
  }
}

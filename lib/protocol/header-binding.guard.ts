import type { IncomingMessage } from 'node:http';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { META_KEYS, MIRRORED_HEADERS } from '../mcp.constants.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import type { HeaderAnnotation } from '../tools/header-annotation.js';
import { quoted } from '../util/bounded.js';
import { decodeHeaderValue } from './header-value.js';
import { requestState } from './request-state.js';

/** Which body field `Mcp-Name` mirrors, per method (DIGEST c.1). Other methods bind no `Mcp-Name`. */
export const MCP_NAME_SOURCES: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** Display spelling of the mirrored headers, for messages. */
const DISPLAY: Record<string, string> = {
  [MIRRORED_HEADERS.protocolVersion]: 'MCP-Protocol-Version',
  [MIRRORED_HEADERS.method]: 'Mcp-Method',
  [MIRRORED_HEADERS.name]: 'Mcp-Name',
};
const display = (header: string, annotation?: HeaderAnnotation) => DISPLAY[header] ?? `Mcp-Param-${annotation?.value ?? header.slice(10)}`;

const DECIMAL = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The header-binding check: a request's mirrored headers must match its body, because intermediaries route on
 * the headers while this server acts on the body. Not a wire check: it needs the parsed body, so it runs after
 * the protocol-fields check and before the version check. Every failure is 400 + -32020 naming the header and
 * what differed, quoting at most a bounded rendering of what was sent.
 *
 * - `MCP-Protocol-Version` equals `_meta`'s protocol version; `Mcp-Method` equals `method` (values compare with
 *   case, header names without).
 * - `Mcp-Name` equals `params.name` (tools/call, prompts/get) or `params.uri` (resources/read), when that body
 *   value is a string; `=?base64?…?=` values are decoded strictly first.
 * - For tools/call of a known tool, each header annotation: an argument present and not null, of a type the
 *   annotation can spell, needs `Mcp-Param-{X}` equal to it (integers compared numerically, booleans as
 *   `true`/`false`); a header sent for an absent or null argument is refused too, since an intermediary may have
 *   routed on a value the body does not hold. Undeclared `Mcp-Param-*` headers are ignored.
 * Notifications pass: the spec sets no header requirement on them.
 * @publicApi
 */
@Injectable()
export class HeaderBindingGuard implements CanActivate {
  static readonly rejecter = 'header-binding-check' as const;

  constructor(private readonly tools: ToolRegistry) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    const state = requestState(req);
    if (state.kind !== 'request') return true;
    const message = state.message!;
    const method = message.method as string;
    const params = isObject(message.params) ? message.params : {};
    const meta = isObject(params._meta) ? params._meta : {};

    this.expectEqual(req, MIRRORED_HEADERS.protocolVersion, meta[META_KEYS.protocolVersion], false);
    this.expectEqual(req, MIRRORED_HEADERS.method, method, false);
    const source = MCP_NAME_SOURCES[method];
    if (source && typeof params[source] === 'string') this.expectEqual(req, MIRRORED_HEADERS.name, params[source], true);
    if (method === 'tools/call' && typeof params.name === 'string') {
      const tool = this.tools.get(params.name);
      if (tool?.headerAnnotations.length) this.checkParams(req, tool.headerAnnotations, params.arguments);
    }
    return true;
  }

  private header(req: IncomingMessage, name: string): string | undefined {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  }

  private expectEqual(req: IncomingMessage, header: string, expected: unknown, decode: boolean): void {
    const raw = this.header(req, header);
    const name = display(header);
    if (raw === undefined)
      throw new RejectionException('header-binding-check', 'missing_header', `Header mismatch: the ${name} header is required and missing.`, {
        data: { header: name },
      });
    const read = decode ? decodeHeaderValue(raw) : /^[\x20-\x7e\t]*$/.test(raw) ? { ok: true as const, value: raw } : { ok: false as const, problem: 'contains characters outside visible ASCII, space and tab' };
    if (!read.ok)
      throw new RejectionException('header-binding-check', 'malformed_header', `Header mismatch: the ${name} header value ${read.problem}.`, {
        data: { header: name },
      });
    if (read.value !== expected)
      throw new RejectionException(
        'header-binding-check',
        'header_mismatch',
        `Header mismatch: ${name} header value ${quoted(read.value, 80)} does not match body value ${quoted(expected, 80)}.`,
        { data: { header: name } },
      );
  }

  private checkParams(req: IncomingMessage, annotations: readonly HeaderAnnotation[], args: unknown): void {
    for (const annotation of annotations) {
      const value = readPath(args, annotation.path);
      const raw = this.header(req, annotation.header);
      const name = display(annotation.header, annotation);
      const argument = annotation.path.join('.');
      if (value === undefined || value === null) {
        if (raw !== undefined)
          throw new RejectionException('header-binding-check', 'header_mismatch', `Header mismatch: ${name} was sent but argument ${quoted(argument, 80)} is absent or null.`, {
            data: { header: name },
          });
        continue;
      }
      const expected = spell(value, annotation.type);
      if (expected === undefined) continue;
      if (raw === undefined)
        throw new RejectionException('header-binding-check', 'missing_header', `Header mismatch: the ${name} header is required because argument ${quoted(argument, 80)} is present.`, {
          data: { header: name },
        });
      const read = decodeHeaderValue(raw);
      if (!read.ok)
        throw new RejectionException('header-binding-check', 'malformed_header', `Header mismatch: the ${name} header value ${read.problem}.`, {
          data: { header: name },
        });
      if (expected === 'out_of_range')
        throw new RejectionException('header-binding-check', 'malformed_header', `Header mismatch: argument ${quoted(argument, 80)} is an integer outside ±(2^53−1) and cannot be mirrored in ${name}.`, {
          data: { header: name },
        });
      const equal = annotation.type === 'integer' ? DECIMAL.test(read.value) && Number(read.value) === value : read.value === expected;
      if (!equal)
        throw new RejectionException(
          'header-binding-check',
          'header_mismatch',
          `Header mismatch: ${name} header value ${quoted(read.value, 80)} does not match body value ${quoted(expected, 80)}.`,
          { data: { header: name } },
        );
    }
  }
}

function readPath(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** The header spelling of a body value under an annotation's type; undefined when the type cannot spell it. */
function spell(value: unknown, type: HeaderAnnotation['type']): string | 'out_of_range' | undefined {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? String(value) : undefined;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return undefined;
      return Number.isSafeInteger(value) ? String(value) : 'out_of_range';
  }
}

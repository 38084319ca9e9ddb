import type { ProtocolSchema } from '../protocol/protocol-schema.js';
import { bounded } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { emptiedReturn } from '../validation/emptied-return.js';
import { jsonValueOffence } from '../validation/json-value.js';

/**
 * Thrown when what a resource's `read` returned cannot be sent as `ReadResourceResult` contents: the server's
 * fault, contained (500 + -32603), never blamed on the caller.
 * @publicApi
 */
export class MalformedResourceResultError extends Error {
  override readonly name = 'MalformedResourceResultError';
}

/** One contents item as sent (MCP `TextResourceContents` or `BlobResourceContents`). */
export type ResourceContent = Readonly<Record<string, unknown>>;

/** What a read's return is completed with, and where a malformed one is reported. */
export interface ContentsDefaults {
  /** The URI read: the `uri` of an item that names none. */
  readonly uri: string;
  /** The declared MIME type: the `mimeType` of an item that names none. */
  readonly mimeType: string | undefined;
  /** The declaration, as refusals name it: `resource "readme" (ReadmeResource)`. */
  readonly where: string;
}

const CONTENTS_KEYS = ['uri', 'mimeType', 'text', 'blob', '_meta'];
const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** One item of what a read returned; `index` undefined when it returned one value, not an array. */
function item(returned: unknown, index: number | undefined, defaults: ContentsDefaults): ResourceContent {
  const at = index === undefined ? 'a value' : `contents[${index}]`;
  // A value JSON would empty (a Map, an Observable) fails a check below: it is named instead (no cost on success).
  const fail = (problem: string) => {
    const emptied = emptiedReturn(returned);
    return new MalformedResourceResultError(`${defaults.where} read() returned ${at} that ${emptied ? `is ${emptied}` : problem}`);
  };
  const filled = (body: Record<string, unknown>, uri: unknown = defaults.uri, mimeType: unknown = defaults.mimeType) => ({
    uri,
    ...(mimeType !== undefined && { mimeType }),
    ...body,
  });
  if (typeof returned === 'string') return filled({ text: returned });
  if (returned instanceof Uint8Array) return filled({ blob: base64(returned) });
  if (returned === undefined || returned === null) throw fail(`is ${String(returned)}: return the contents, or throw resourceNotFound(uri) when there is nothing at the URI`);
  if (!isPlainObject(returned)) throw fail(`is neither text, bytes nor a contents object: ${bounded(returned, 60)}`);
  const extra = Object.keys(returned).filter((key) => !CONTENTS_KEYS.includes(key));
  if (extra.length) throw fail(`has unknown key(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}; a contents object holds ${CONTENTS_KEYS.join(', ')}`);
  // A key holding undefined is absent, as JSON writes it (`{text, blob: undefined}` is text).
  const isText = returned.text !== undefined;
  if (isText === (returned.blob !== undefined)) throw fail('must hold exactly one of text and blob');
  if (returned._meta !== undefined) {
    const notJson = jsonValueOffence(returned._meta, ['_meta']);
    if (notJson) throw fail(`holds a _meta JSON cannot carry, ${notJson}`);
  }
  const body: Record<string, unknown> = isText ? { text: returned.text } : { blob: returned.blob instanceof Uint8Array ? base64(returned.blob) : returned.blob };
  if (returned._meta !== undefined) body._meta = returned._meta;
  return filled(body, returned.uri ?? defaults.uri, returned.mimeType ?? defaults.mimeType);
}

/**
 * Turns what a read returned into `ReadResourceResult` contents: text, bytes (base64 `blob`), one contents object
 * or an array of them, each completed with the URI read and the declared MIME type, then checked against the
 * protocol's `TextResourceContents` or `BlobResourceContents`. An empty array, or anything else, is a
 * `MalformedResourceResultError`.
 */
export function readContents(returned: unknown, defaults: ContentsDefaults, protocol: ProtocolSchema): ResourceContent[] {
  const items = Array.isArray(returned) ? (returned as unknown[]) : [returned];
  if (items.length === 0)
    throw new MalformedResourceResultError(`${defaults.where} read() returned no contents; throw resourceNotFound(uri) when there is nothing at the URI`);
  // Array.from visits a hole of a sparse array (as undefined, a malformed item), which map would keep as a hole.
  const contents = Array.from(items, (returnedItem, index) => item(returnedItem, Array.isArray(returned) ? index : undefined, defaults));
  const problems = contents.flatMap((content, index) =>
    protocol.check('text' in content ? 'TextResourceContents' : 'BlobResourceContents', content).map((p) => `/contents/${[index, ...p.path].join('/')}: ${p.problem}`),
  );
  if (problems.length)
    throw new MalformedResourceResultError(`${defaults.where} read() returned contents that are not valid MCP resource contents: ${problems.slice(0, 3).join('; ')}`);
  return contents;
}

import type { McpRequestRecord } from '../contracts/request-record.js';

/**
 * What one JSON value of a parsed request costs in heap, at most: a body of many small values (`[0,0,0,…]`, about
 * ten bytes a value as text) holds six to eight times its size once parsed, a body of one long string about its size.
 */
export const HEAP_BYTES_PER_VALUE = 80;

/**
 * What a request costs in memory while its handler runs or its call waits (a legacy input request's answer, a running
 * task, a listen stream): what its text may hold ({@link textBytes}: its body's bytes, or twice its characters when
 * one is past ASCII or escaped), or {@link HEAP_BYTES_PER_VALUE} a JSON value when that is more, so a body of many
 * small values counts for what it holds. A legacy request's message, params and `_meta` were copied key by key to
 * carry its protocol fields (the protocol-fields check), the parsed body kept beside them: each copied key counts
 * as a value again. Its header lines count beside the body: their characters, and {@link HEAP_BYTES_PER_VALUE} a
 * line (each is held as several strings: Node's raw list, its headers object, the mount's lower-cased names).
 * Counted once, when the handler starts or the call starts waiting: its values as message validation counted them
 * (else a walk of them).
 */
export function requestFootprint(record: McpRequestRecord): number {
  const message = record.message;
  const params = message?.params as Record<string, unknown> | undefined;
  const copied = record.era === 'legacy' && message ? ownKeyCount(message) + ownKeyCount(params) + ownKeyCount(params?._meta) : 0;
  const headers = record.lines?.size();
  return (
    Math.max(textBytes(record), ((record.values ?? valueCount(message)) + copied) * HEAP_BYTES_PER_VALUE) +
    (headers ? headers.chars + headers.lines * HEAP_BYTES_PER_VALUE : 0)
  );
}

/**
 * What the request's text may hold in memory: its body's bytes, or two bytes a UTF-16 unit when it holds a character
 * past ASCII or a `\u` escape and that is more (V8 keeps a string holding one at two bytes a unit, its ASCII too). A
 * body a host parser read comes without its size: two bytes a unit of its strings and keys.
 */
function textBytes(record: McpRequestRecord): number {
  if (record.bodyBytes === undefined) return 2 * textUnits(record.message);
  return Math.max(record.bodyBytes, 2 * (record.bodyUnits ?? 0));
}

/** How many own keys a plain object has (0 for anything else). */
function ownKeyCount(value: unknown): number {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value).length : 0;
}

/** The UTF-16 units of a parsed message's strings and keys (its nesting is bounded, so the walk's stack is too). */
function textUnits(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  let units = 0;
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) units += textUnits(value[i]);
  else for (const key in value) if (Object.hasOwn(value, key)) units += key.length + textUnits((value as Record<string, unknown>)[key]);
  return units;
}

/** The JSON values of a parsed message, itself included (its nesting is bounded, so the walk's stack is too). */
function valueCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  let count = 1;
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) count += valueCount(value[i]);
  else for (const key in value) if (Object.hasOwn(value, key)) count += valueCount((value as Record<string, unknown>)[key]);
  return count;
}

import type { JsonRpcId } from '../contracts/request-record.js';
import { bounded } from '../util/bounded.js';
import type { SchemaProblem } from '../validation/schema-problems.js';

/** A JSON-RPC error object. @publicApi */
export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** The JSON-RPC error envelope: `id` echoes the request's when it could be read, and is absent otherwise. */
export function errorEnvelope(id: JsonRpcId | undefined, error: JsonRpcError): Record<string, unknown> {
  const body: Record<string, unknown> = { jsonrpc: '2.0' };
  if (id !== undefined) body.id = id;
  body.error = error.data === undefined ? { code: error.code, message: error.message } : error;
  return body;
}

/** A JSON-RPC result object of an MCP method; `resultType` is the handler's to set. */
export type McpResult = Record<string, unknown> & { resultType: string };

/** A result response envelope. */
function resultEnvelope(id: JsonRpcId, result: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', id, result };
}

/** Shared results (the same object answers every request that gets it), with their JSON text once it is made. */
const sharedResults = new WeakMap<object, string | undefined>();

/**
 * Marks a result shared: it is frozen, shallowly (what it holds is built at module init and never changed after, so
 * the text kept for it stays its text), and serialized once.
 */
export function sharedResult<T extends Record<string, unknown>>(result: T): Readonly<T> {
  sharedResults.set(Object.freeze(result), undefined);
  return result;
}

/** Whether a result was marked shared ({@link sharedResult}). */
export function isSharedResult(result: object): boolean {
  return sharedResults.has(result);
}

/** The JSON text of a result response envelope, as `JSON.stringify(resultEnvelope(id, result))`; a shared result's part made once. */
export function resultEnvelopeJson(id: JsonRpcId, result: Record<string, unknown>): string {
  if (!sharedResults.has(result)) return JSON.stringify(resultEnvelope(id, result));
  let text = sharedResults.get(result);
  if (text === undefined) sharedResults.set(result, (text = JSON.stringify(result)));
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${text}}`;
}

/** The longest path segment an instance location spells out; a longer one is cut (bounded). */
const SEGMENT_BOUND = 64;

/** Spells path segments as an instance location: a JSON Pointer (RFC 6901), each segment bounded. */
export function instanceLocation(path: readonly (string | number)[]): string {
  return path.map((s) => '/' + bounded(String(s), SEGMENT_BOUND).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** How many locations a distilled error lists at most. */
const DISTILLED_LOCATIONS_MAX = 10;

/** One entry of a distilled error: a failing location and what is wrong there. */
export interface DistilledEntry {
  location: string;
  problems: string[];
}

/**
 * The distilled error's `data`: one entry per failing location (JSON Pointer from the message root), at most
 * {@link DISTILLED_LOCATIONS_MAX}, `errorCount` counting all; problems in this library's words, never ajv's.
 */
export function distilledData(problems: readonly SchemaProblem[], prefix: readonly (string | number)[] = []) {
  const byLocation = new Map<string, string[]>();
  for (const { path, problem } of problems) {
    const location = instanceLocation([...prefix, ...path]);
    const entry = byLocation.get(location);
    if (entry) entry.push(problem);
    else byLocation.set(location, [problem]);
  }
  const errors: DistilledEntry[] = [...byLocation].slice(0, DISTILLED_LOCATIONS_MAX).map(([location, list]) => ({ location, problems: list }));
  return { errorCount: byLocation.size, errors };
}

/**
 * A distilled error's first problem, to end a refusal's message with (`; at /params/uri, must be string`, and how
 * many locations follow, of which `data.errors` lists up to ten): a client that shows its user or model only the
 * message still shows what to fix. Every distilled refusal's message ends with it.
 */
export function firstProblem({ errorCount, errors: [first] }: ReturnType<typeof distilledData>): string {
  if (!first) return '';
  const more = errorCount > 1 ? ` (and ${errorCount - 1} more location${errorCount > 2 ? 's' : ''}; see data.errors)` : '';
  return `; at ${first.location === '' ? 'the message root' : bounded(first.location, 200)}, ${first.problems[0]}${more}`;
}

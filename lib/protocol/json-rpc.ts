import type { JsonRpcId } from '../contracts/request-record.js';
import type { JsonRpcError } from '../errors/json-rpc-codes.js';

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

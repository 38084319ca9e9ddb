import { JSON_RPC_CODES, type JsonRpcCode } from './json-rpc-codes.js';

/**
 * The only place a rejection's HTTP status and JSON-RPC code are decided (a rejecter throws just its rejecter and
 * reason): one row per rejection a request can meet, in the order a request meets them. `legacyStatus`, where a
 * row has one, is the status on the legacy era: a legacy client reads a JSON-RPC error only from a 2xx answer,
 * so a refusal after the request was understood (method routing) goes out with 200 there, as a method error does.
 * `removed_method` is met on the modern era only.
 * Proven by: test/sweeps/rejection-table.sweep.e2e-spec.ts (every row reached by a request, by its mark).
 * @publicApi
 */
export const REJECTION_TABLE = [
  { rejecter: 'origin-check', reason: 'forbidden_origin', status: 403, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'origin-check', reason: 'forbidden_host', status: 403, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'origin-check', reason: 'duplicate_origin', status: 400, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'origin-check', reason: 'duplicate_host', status: 400, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'origin-check', reason: 'too_many_header_lines', status: 431, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'singleton-header-check', reason: 'duplicate_header', status: 400, code: JSON_RPC_CODES.headerMismatch },
  { rejecter: 'auth-check', reason: 'invalid_request', status: 400, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'auth-check', reason: 'unauthorized', status: 401, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'auth-check', reason: 'insufficient_scope', status: 403, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'auth-check', reason: 'forbidden', status: 403, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'parse-step', reason: 'duplicate_content_type', status: 400, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'parse-step', reason: 'unsupported_media_type', status: 415, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'parse-step', reason: 'unsupported_content_encoding', status: 415, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'parse-step', reason: 'unsupported_transfer_encoding', status: 501, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'parse-step', reason: 'body_too_large', status: 413, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'parse-step', reason: 'too_many_values', status: 413, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'parse-step', reason: 'stalled_read', status: 408, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'parse-step', reason: 'invalid_json', status: 400, code: JSON_RPC_CODES.parseError },
  { rejecter: 'parse-step', reason: 'batch', status: 400, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'parse-step', reason: 'not_an_object', status: 400, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'message-validation', reason: 'invalid_message', status: 400, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'message-validation', reason: 'client_response', status: 400, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'protocol-fields', reason: 'missing_protocol_fields', status: 400, code: JSON_RPC_CODES.invalidParams },
  { rejecter: 'protocol-fields', reason: 'malformed_protocol_fields', status: 400, code: JSON_RPC_CODES.invalidParams },
  { rejecter: 'header-binding-check', reason: 'missing_header', status: 400, code: JSON_RPC_CODES.headerMismatch },
  { rejecter: 'header-binding-check', reason: 'header_mismatch', status: 400, code: JSON_RPC_CODES.headerMismatch },
  { rejecter: 'header-binding-check', reason: 'malformed_header', status: 400, code: JSON_RPC_CODES.headerMismatch },
  { rejecter: 'version-check', reason: 'unsupported_version', status: 400, code: JSON_RPC_CODES.unsupportedProtocolVersion },
  { rejecter: 'answer-routing', reason: 'unknown_answer', status: 400, code: JSON_RPC_CODES.invalidRequest },
  { rejecter: 'method-routing', reason: 'unknown_method', status: 404, legacyStatus: 200, code: JSON_RPC_CODES.methodNotFound },
  { rejecter: 'method-routing', reason: 'removed_method', status: 404, code: JSON_RPC_CODES.methodNotFound },
  { rejecter: 'method-routing', reason: 'invalid_params', status: 400, legacyStatus: 200, code: JSON_RPC_CODES.invalidParams },
] as const satisfies readonly { rejecter: string; reason: string; status: number; legacyStatus?: number; code: JsonRpcCode }[];

/** One row of {@link REJECTION_TABLE}. @publicApi */
export type RejectionRow = (typeof REJECTION_TABLE)[number];

/** Who refused: the name a rejection mark carries. @publicApi */
export type Rejecter = RejectionRow['rejecter'];

/** Why a rejecter refused; with the rejecter, it names exactly one table row. @publicApi */
export type RejectionReason<R extends Rejecter = Rejecter> = Extract<RejectionRow, { rejecter: R }>['reason'];

const ROWS = new Map<string, RejectionRow>(REJECTION_TABLE.map((row) => [`${row.rejecter}/${row.reason}`, row]));

/** Looks a (rejecter, reason) pair up in the table; the pair is typed, so a miss is a programming error. */
export function rejectionRow(rejecter: Rejecter, reason: string): RejectionRow {
  const row = ROWS.get(`${rejecter}/${reason}`);
  if (!row) throw new Error(`No rejection table row for ${rejecter}/${reason}`);
  return row;
}

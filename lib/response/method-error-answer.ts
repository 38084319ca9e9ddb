import { answersRequest, type McpRequestRecord } from '../contracts/request-record.js';
import type { McpMethodError } from '../errors/mcp-method.error.js';
import { errorEnvelope } from '../protocol/json-rpc.js';

/**
 * A method error as the request is answered with it: its envelope, the request's id echoed, and its status, 200 on
 * the legacy era, whose client reads a JSON-RPC error only from a 2xx answer (see `REJECTION_TABLE`'s legacyStatus).
 * A POST that carried no request gets no id and an HTTP error status, whatever the error's own (200 by default;
 * `answersRequest`).
 */
export function methodErrorAnswer(error: McpMethodError, record: McpRequestRecord): { readonly status: number; readonly body: Record<string, unknown> } {
  const answersOne = answersRequest(record);
  return {
    status: !answersOne ? Math.max(error.httpStatus, 400) : record.era === 'legacy' ? 200 : error.httpStatus,
    body: errorEnvelope(answersOne ? record.id : undefined, { code: error.code, message: error.message, data: error.data }),
  };
}

import type { McpContextInit } from '../context/mcp-context.js';
import type { MethodCall } from './method-handler.interface.js';

/** What every handler's `McpContext` takes from the routed call: the record, the host request and its headers, the answer stream. */
export function callFacts(call: Omit<MethodCall, 'params'>): Pick<McpContextInit, 'record' | 'headers' | 'request' | 'answer'> {
  return { record: call.record, headers: call.request.headers, request: call.hostRequest, answer: call.answer };
}

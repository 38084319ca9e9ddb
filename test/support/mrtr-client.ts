import type { Server } from 'node:http';

import { META_KEYS } from '../../lib/index.js';
import { meta, post, rpc } from './mcp-client.js';

/** Client capabilities declaring every input kind. */
export const ALL_INPUT_CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} } as const;

/** What one tools/call round carries besides the tool name and arguments. */
export interface RoundOptions {
  /** The request's client capabilities (default: every input kind). */
  capabilities?: Record<string, unknown>;
  inputResponses?: unknown;
  requestState?: unknown;
  /** Extra `_meta` fields (progressToken, logLevel, …). */
  meta?: Record<string, unknown>;
  /** Extra or overriding HTTP headers. */
  headers?: Record<string, string | string[] | null>;
}

/** A tools/call body for one round of a multi round-trip request. */
export function toolCall(name: string, args: Record<string, unknown> | undefined, options: RoundOptions = {}): Record<string, unknown> {
  const params: Record<string, unknown> = {
    _meta: meta({ [META_KEYS.clientCapabilities]: options.capabilities ?? ALL_INPUT_CAPABILITIES, ...options.meta }),
    name,
  };
  if (args !== undefined) params.arguments = args;
  if (options.inputResponses !== undefined) params.inputResponses = options.inputResponses;
  if (options.requestState !== undefined) params.requestState = options.requestState;
  return rpc('tools/call', params);
}

/** POSTs one round of a tools/call. */
export function callTool(server: Server, name: string, args?: Record<string, unknown>, options: RoundOptions = {}) {
  return post(server, toolCall(name, args, options), options.headers ?? {});
}

/** The JSON payload sealed inside a `requestState` (`v1.<payload>.<tag>`): readable by any client. */
export function statePayload(requestState: string): Record<string, any> {
  return JSON.parse(Buffer.from(requestState.split('.')[1]!, 'base64url').toString('utf8'));
}

/** An accepted elicitation answer. */
export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** A sampling answer with one text block. */
export const sampled = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'test-model', stopReason: 'endTurn' });

import diagnosticsChannel from 'node:diagnostics_channel';
import type { Server } from 'node:http';

import request from 'supertest';

import { META_KEYS } from '../../lib/index.js';
import type { McpChannel, McpTelemetryEvents, RejectionMark } from '../../lib/index.js';

/** The protocol version every test request declares unless it says otherwise. */
export const VERSION = '2026-07-28';

/** A `_meta` block with the per-request protocol fields. */
export function meta(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    [META_KEYS.protocolVersion]: VERSION,
    [META_KEYS.clientCapabilities]: {},
    [META_KEYS.clientInfo]: { name: 'test-client', version: '1.0.0' },
    ...overrides,
  };
}

let nextId = 1;

/** A JSON-RPC request body for `method`, with `_meta` filled in (pass `params._meta` to replace it). */
export function rpc(method: string, params: Record<string, unknown> = {}, id: string | number = nextId++): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params: { _meta: meta(), ...params } };
}

/** The JSON text of a `tools/call` of `echo` whose `text` pads it to exactly `size` bytes. */
export function echoCallOfSize(size: number): string {
  const base = JSON.stringify(rpc('tools/call', { name: 'echo', arguments: { text: '' } }, 1));
  const body = JSON.stringify(rpc('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(size - Buffer.byteLength(base)) } }, 1));
  if (Buffer.byteLength(body) !== size) throw new Error(`no echo call is ${size} bytes long`);
  return body;
}

/** The mirrored headers a conforming (modern) client sends for a body (MCP-Protocol-Version, Mcp-Method, Mcp-Name). */
export function mirroredHeaders(body: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const params = (body.params ?? {}) as Record<string, unknown>;
  const version = (params._meta as Record<string, unknown> | undefined)?.[META_KEYS.protocolVersion];
  headers['mcp-protocol-version'] = typeof version === 'string' ? version : VERSION; // a modern client always sends it
  if (typeof body.method === 'string') headers['mcp-method'] = body.method;
  if ((body.method === 'tools/call' || body.method === 'prompts/get') && typeof params.name === 'string') headers['mcp-name'] = params.name;
  if (body.method === 'resources/read' && typeof params.uri === 'string') headers['mcp-name'] = params.uri;
  if (typeof body.method === 'string' && body.method.startsWith('tasks/') && typeof params.taskId === 'string') headers['mcp-name'] = params.taskId;
  return headers;
}

/**
 * POSTs a JSON-RPC body like a conforming client (mirrored headers set from the body), with optional header
 * overrides (a `null` value removes a header; an array sends repeated header lines).
 */
export function post(server: Server, body: unknown, headers: Record<string, string | string[] | null> = {}, path = '/mcp'): request.Test {
  const base = typeof body === 'object' && body !== null && !Array.isArray(body) ? mirroredHeaders(body as Record<string, unknown>) : { 'content-type': 'application/json' };
  const merged: Record<string, string | string[] | null> = { ...base };
  for (const [name, value] of Object.entries(headers)) merged[name.toLowerCase()] = value;
  let test = request(server).post(path);
  for (const [name, value] of Object.entries(merged)) if (value !== null) test = test.set(name, value as string);
  return test.send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Records every event published on the given channels while `fn` runs. */
export async function recordEvents<C extends McpChannel>(channels: readonly C[], fn: () => Promise<unknown>): Promise<{ channel: C; message: McpTelemetryEvents[C] }[]> {
  const events: { channel: C; message: McpTelemetryEvents[C] }[] = [];
  const handlers = channels.map((channel) => {
    const handler = (message: unknown) => events.push({ channel, message: message as McpTelemetryEvents[C] });
    diagnosticsChannel.subscribe(channel, handler);
    return [channel, handler] as const;
  });
  try {
    await fn();
  } finally {
    for (const [channel, handler] of handlers) diagnosticsChannel.unsubscribe(channel, handler);
  }
  return events;
}

/** The rejection mark the server recorded for one request, read from its `mcp:wire:reject` event. */
export async function rejectionOf(fn: () => Promise<unknown>): Promise<RejectionMark | undefined> {
  const events = await recordEvents(['mcp:wire:reject'], fn);
  const last = events.at(-1)?.message;
  return last && { rejecter: last.rejecter, reason: last.reason };
}

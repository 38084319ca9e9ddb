import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The headers a legacy client sends after `initialize` (no `_meta`, no `Mcp-Method`). */
export function legacyHeaders(version: string | null = '2025-11-25', extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(version !== null && { 'mcp-protocol-version': version }),
    ...extra,
  };
}

/** An `initialize` request body. */
export const initialize = (protocolVersion = '2025-11-25', capabilities: Record<string, unknown> = {}, id: string | number = 'init') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'legacy-test-client', version: '1.0.0' } },
});

const url = (server: Server, path = '/mcp') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;

/** POSTs one message like a legacy client (through fetch, as the official clients do) to `path`; status, headers and messages. */
export async function legacyPost(server: Server, body: unknown, headers: Record<string, string> = legacyHeaders(), path?: string) {
  const res = await fetch(url(server, path), { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  const sse = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  return { status: res.status, headers: res.headers, messages: text === '' ? [] : sse ? sseData(text) : [JSON.parse(text) as Record<string, any>] };
}

function sseData(text: string): Record<string, any>[] {
  return text
    .split(/\n\n/)
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Record<string, any>);
}

/** What a test answers a server-to-client request with: a result, an error, or nothing (leave it waiting). */
export type Reply = { result: unknown } | { error: { code: number; message: string } } | 'no-answer';

/**
 * A legacy `tools/call` over a streamed answer: every server-to-client request on the stream is answered by POSTing
 * `reply(request)` back (as its own request, as a client does), and the call resolves with every message of the
 * stream, the final response last, plus the status of each answer POST.
 */
export function legacyToolCall(
  server: Server,
  name: string,
  args: Record<string, unknown>,
  reply: (request: Record<string, any>) => Reply,
  options: { headers?: Record<string, string>; meta?: Record<string, unknown>; signal?: AbortSignal; path?: string } = {},
): Promise<{ status: number; messages: Record<string, any>[]; answerStatuses: number[] }> {
  return legacyRequest(server, 'tools/call', { name, arguments: args }, reply, { ...options, id: `call-${name}` });
}

/**
 * Any legacy request over a streamed answer (`tools/call`, `resources/read`, `prompts/get`): as `legacyToolCall`,
 * server-to-client requests on its stream are answered with `reply(request)`.
 */
export async function legacyRequest(
  server: Server,
  method: string,
  params: Record<string, unknown>,
  reply: (request: Record<string, any>) => Reply,
  options: { headers?: Record<string, string>; meta?: Record<string, unknown>; signal?: AbortSignal; id?: string | number; path?: string } = {},
): Promise<{ status: number; messages: Record<string, any>[]; answerStatuses: number[] }> {
  const body = { jsonrpc: '2.0', id: options.id ?? `request-${method}`, method, params: { ...params, ...(options.meta && { _meta: options.meta }) } };
  const res = await fetch(url(server, options.path), { method: 'POST', headers: options.headers ?? legacyHeaders(), body: JSON.stringify(body), signal: options.signal });
  const messages: Record<string, any>[] = [];
  const answerStatuses: number[] = [];
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    return { status: res.status, messages: [(await res.json()) as Record<string, any>], answerStatuses };
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const [message] = sseData(buffer.slice(0, end + 2));
      buffer = buffer.slice(end + 2);
      if (!message) continue;
      messages.push(message);
      if (typeof message.method === 'string' && message.id !== undefined) {
        const answer = reply(message);
        if (answer !== 'no-answer')
          answerStatuses.push((await legacyPost(server, { jsonrpc: '2.0', id: message.id, ...answer }, options.headers ?? legacyHeaders(), options.path)).status);
      }
    }
  }
  return { status: res.status, messages, answerStatuses };
}

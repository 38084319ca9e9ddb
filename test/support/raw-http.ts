import { once } from 'node:events';
import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

import { dropsExcessHeaderLines } from '../../lib/util/header-lines.js';
import { mirroredHeaders } from './mcp-client.js';

/** One header line: name and value exactly as they go on the wire (repeat a name to send it twice). */
export type HeaderLine = readonly [name: string, value: string];

/** What a raw request is made of; everything a conforming client would add is left to the caller. */
export interface RawRequest {
  method?: string;
  path?: string;
  /** Header lines in order; `Host` is `<address>:<port>` of the server unless a line names it. */
  headers?: readonly HeaderLine[];
  body?: string | Buffer;
  /** The address to connect to, when it is not the one the server listens on (a non-loopback interface). */
  connectTo?: string;
  /** Sends the head first and the body this many milliseconds later, so the server reads the body as it arrives. */
  bodyAfterMs?: number;
}

/** A raw answer: status, headers, the body as text and, when it is JSON, parsed. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: unknown;
}

/**
 * Sends one HTTP/1.1 request with full control of its header lines (a spoofed or repeated `Host`, repeated
 * singleton headers, names in any case), which supertest cannot express for `Host`.
 */
export function rawRequest(server: Server, request: RawRequest = {}): Promise<RawResponse> {
  const { address, port } = server.address() as AddressInfo;
  const lines: HeaderLine[] = [...(request.headers ?? [])];
  if (!lines.some(([name]) => name.toLowerCase() === 'host')) lines.unshift(['Host', `${address.includes(':') ? `[${address}]` : address}:${port}`]);
  const chunked = lines.some(([name]) => name.toLowerCase() === 'transfer-encoding');
  if (request.body !== undefined && !chunked) lines.push(['Content-Length', String(Buffer.byteLength(request.body))]);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: request.connectTo ?? address, port, method: request.method ?? 'POST', path: request.path ?? '/mcp', agent: false, headers: lines.flat() },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    req.on('error', reject);
    if (request.bodyAfterMs === undefined) return void req.end(request.body);
    req.flushHeaders();
    setTimeout(() => req.end(request.body), request.bodyAfterMs);
  });
}

/**
 * Whether the Node running the tests answers a request with more header lines than its server reads 431 itself
 * (no JSON-RPC body, no check run) rather than dropping the lines past them.
 */
export const NODE_REFUSES_EXCESS_LINES = !dropsExcessHeaderLines(process.versions);

/**
 * Whether the Node running the tests closes, at `server.close()`, an HTTP/1.1 connection that carries no request
 * (its client sent nothing, or part of a request's headers), as Node 26.4 and later do; earlier releases leave it to
 * its client, or to the mount's cut once the shutdown's delivery grace is over.
 */
export const NODE_CLOSES_UNUSED_CONNECTIONS = ((major, minor) => major > 26 || (major === 26 && minor >= 4))(
  ...(process.versions.node.split('.').map(Number) as [number, number]),
);

/** `count` header lines of no meaning (`X-Fill-0: 1`, …), to pad a request's header block. */
export const fillerLines = (count: number): HeaderLine[] => Array.from({ length: count }, (_, i) => [`X-Fill-${i}`, '1'] as const);

/** The loopback port a listening test server is on. */
export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/**
 * Opens a socket, sends the request head and the first part of a body, then stops sending (a stalled read);
 * resolves with everything the server wrote before it closed the connection or `waitMs` passed.
 */
export function stalledRequest(server: Server, head: string, partialBody: string, waitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(portOf(server), '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(received);
    }, waitMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', reject);
    socket.write(head + partialBody);
  });
}

/**
 * Sends JSON-RPC requests (mirrored headers) on a socket of their own that never reads their answers, all in one
 * write when there are several (pipelined: each taken up in its turn, once the answer before it went); the socket,
 * paused.
 */
export function callAndNeverRead(server: Server, ...bodies: Record<string, unknown>[]): Promise<Socket> {
  return pipelineAndNeverRead(
    server,
    bodies.map((body) => ({ body })),
  );
}

/** {@link callAndNeverRead} with headers of each request's own beside its mirrored ones. */
export async function pipelineAndNeverRead(server: Server, requests: readonly { body: Record<string, unknown>; headers?: Record<string, string> }[]): Promise<Socket> {
  const socket = connect(portOf(server), '127.0.0.1');
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.pause();
  const texts = requests.map(({ body, headers }) => {
    const text = JSON.stringify(body);
    const lines = Object.entries({ ...mirroredHeaders(body), ...headers, 'content-length': String(Buffer.byteLength(text)) }).map(([n, v]) => `${n}: ${v}\r\n`);
    return `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n${lines.join('')}\r\n${text}`;
  });
  socket.write(texts.join(''));
  return socket;
}

/** What a reverse proxy read of an answer: every byte, and whether its read timeout cut the connection first. */
export interface ProxiedAnswer {
  text: string;
  cut: boolean;
}

/**
 * Forwards one POST the way nginx does at its defaults (HTTP/1.0, `Connection: close`, the whole body with its
 * `Content-Length`) and reads the answer as it does: a wait of `readTimeoutMs` with no byte arriving
 * (`proxy_read_timeout`, 60 s by default) closes the connection. `onText` sees the answer so far at each chunk
 * (to answer a legacy input request on the stream, as the client behind the proxy would).
 */
export function proxiedRequest(
  server: Server,
  body: unknown,
  headers: Record<string, string>,
  readTimeoutMs: number,
  onText?: (text: string) => void,
): Promise<ProxiedAnswer> {
  const text = JSON.stringify(body);
  const lines = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(text)), connection: 'close' }).map(([n, v]) => `${n}: ${v}\r\n`);
  return new Promise((resolve, reject) => {
    const socket = connect(portOf(server), '127.0.0.1');
    let received = '';
    let cut = false;
    socket.setTimeout(readTimeoutMs, () => {
      cut = true;
      socket.destroy();
    });
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      onText?.(received);
    });
    socket.on('close', () => resolve({ text: received, cut }));
    socket.on('error', reject);
    socket.write(`POST /mcp HTTP/1.0\r\nhost: 127.0.0.1:${portOf(server)}\r\n${lines.join('')}\r\n${text}`);
  });
}

/** Sends `message` as one POST to `/mcp` and returns the request unanswered: destroy it to be a client that leaves. */
export function leavingRequest(server: Server, message: Record<string, unknown>): http.ClientRequest {
  const body = JSON.stringify(message);
  const req = http.request({
    port: portOf(server),
    host: '127.0.0.1',
    path: '/mcp',
    method: 'POST',
    headers: { ...mirroredHeaders(JSON.parse(body)), 'content-length': Buffer.byteLength(body) },
  });
  req.on('error', () => undefined);
  req.end(body);
  return req;
}

import type { Server } from 'node:http';
import http2, { type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Settings } from 'node:http2';
import type { AddressInfo } from 'node:net';

import { mirroredHeaders } from './mcp-client.js';

/** An answer read over HTTP/2: its status, headers and body text, and the RST_STREAM code it closed with (0: none). */
export interface H2Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  rstCode: number;
}

/** Opens an HTTP/2 session in cleartext (prior knowledge) to a test app's server on loopback, with the client's SETTINGS given. */
export function h2Connect(server: Server, settings: Settings = {}): ClientHttp2Session {
  const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { settings });
  session.on('error', () => undefined);
  return session;
}

/**
 * Sends one request on a session; `stream` sees the request's stream as soon as it is open (to reset it, say). With
 * `partial`, the body is sent without its end, and the answer is taken as it stands after `partial` ms unless the
 * stream closed before (`rstCode` -1 then).
 */
export function h2Request(
  session: ClientHttp2Session,
  headers: OutgoingHttpHeaders,
  body?: string,
  stream?: (req: ClientHttp2Stream) => void,
  partial?: number,
): Promise<H2Answer> {
  return new Promise((resolve) => {
    const req = session.request(headers);
    const answer: H2Answer = { status: 0, headers: {}, text: '', rstCode: 0 };
    req.on('response', (received) => {
      answer.status = Number(received[':status']);
      answer.headers = received;
    });
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (answer.text += chunk));
    req.on('error', () => undefined);
    req.on('close', () => resolve({ ...answer, rstCode: req.rstCode ?? 0 }));
    stream?.(req);
    if (partial === undefined) return void req.end(body);
    req.write(body ?? '');
    setTimeout(() => (resolve({ ...answer, rstCode: -1 }), req.close()), partial).unref();
  });
}

/**
 * POSTs a JSON-RPC body to `/mcp` over HTTP/2 like a conforming client (mirrored headers), with header overrides
 * (`null` removes one); `stream` as for {@link h2Request}.
 */
export function h2Post(
  session: ClientHttp2Session,
  body: Record<string, unknown>,
  headers: Record<string, string | string[] | null> = {},
  stream?: (req: ClientHttp2Stream) => void,
): Promise<H2Answer> {
  const sent: OutgoingHttpHeaders = { ':method': 'POST', ':path': '/mcp', ...mirroredHeaders(body) };
  for (const [name, value] of Object.entries(headers)) {
    if (value === null) delete sent[name];
    else sent[name] = value;
  }
  return h2Request(session, sent, JSON.stringify(body), stream);
}

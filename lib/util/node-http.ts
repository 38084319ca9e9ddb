import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, Http2ServerRequest, Http2ServerResponse, type Http2Stream } from 'node:http2';

/**
 * The Node request under a host framework's request: Express's request is one, Fastify's wraps one as `raw`. Every
 * check of the mount reads the Node request, whatever the adapter.
 */
export function nodeRequest(req: unknown): IncomingMessage {
  return ((req as { raw?: IncomingMessage }).raw ?? req) as IncomingMessage;
}

/** The Node response under a host framework's response (Fastify's reply holds one as `raw`), left to the host. */
export function rawResponse(res: unknown): ServerResponse {
  return ((res as { raw?: ServerResponse }).raw ?? res) as ServerResponse;
}

/**
 * The Node response under a host framework's response, taken over for the mount to write: Fastify's reply is told
 * (`hijack`) that the route writes the raw response itself, so it never answers a second time, and the headers the
 * host set on the reply (`reply.header()`: a rate limiter's, `@fastify/cors`') are moved onto the raw response, where
 * the answer's own are written beside them (and win a clash).
 */
export function nodeResponse(res: unknown): ServerResponse {
  const reply = res as { raw?: ServerResponse; hijack?: () => void; getHeaders?: () => Record<string, unknown> };
  const raw = reply.raw;
  if (!raw) return res as ServerResponse;
  reply.hijack?.();
  if (!raw.headersSent && typeof reply.getHeaders === 'function') {
    const held = reply.getHeaders();
    for (const name in held) if (held[name] !== undefined && !raw.hasHeader(name)) raw.setHeader(name, held[name] as string | number | readonly string[]);
  }
  return raw;
}

/**
 * The HTTP/2 stream under a request or response of Node's HTTP/2 compatibility API (a Fastify host with
 * `http2: true`); undefined over HTTP/1.x.
 */
export function http2StreamOf(message: IncomingMessage | ServerResponse): Http2Stream | undefined {
  const compat: unknown = message;
  return compat instanceof Http2ServerRequest || compat instanceof Http2ServerResponse ? compat.stream : undefined;
}

/**
 * Cuts a response off before its end: over HTTP/1.x its connection is destroyed; over HTTP/2 only its stream, reset
 * with CANCEL. A destroyed HTTP/2 stream is reset with NO_ERROR, which says the answer went whole (RFC 9113 §8.1).
 */
export function cutOff(res: ServerResponse): void {
  const stream = http2StreamOf(res);
  if (stream && !stream.closed) stream.close(constants.NGHTTP2_CANCEL);
  else res.destroy();
}

import type { IncomingMessage, ServerResponse } from 'node:http';

import { bodyStillArriving } from '../protocol/read-body.js';
import { http2StreamOf } from '../util/node-http.js';
import { boundRestOfBody, endAfterBody, endBeforeBody } from './lingering-close.js';
import { holdUnsent } from './write-progress.js';

/** Writes JSON on the raw Node response (adapter-neutral); a no-op once finished, so a late writer cannot throw. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** The request of a response, when its body is still arriving (an answer sent before it was read: a refusal). */
function arrivingBody(res: ServerResponse): IncomingMessage | undefined {
  const req = (res as { req?: IncomingMessage }).req;
  return req && bodyStillArriving(req) ? req : undefined;
}

/**
 * Whether the connection closes after this answer: the answer says so (`connection: close`), or Node will close it
 * anyway (the request asked to, spoke HTTP/1.0, or the mount is shutting down: `shouldKeepAlive` false).
 */
function closesAfter(res: ServerResponse, headers: Readonly<Record<string, string>>): boolean {
  return headers.connection === 'close' || !res.shouldKeepAlive;
}

/**
 * Sets an answer's headers. Over HTTP/2 a `connection` header is left out: HTTP/2 has none (RFC 9113 §8.2.2), Node
 * would drop it with a process warning, and {@link endBeforeBody} does what it asks for.
 */
function setHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>, http2: boolean): void {
  for (const name in headers) if (!(http2 && name === 'connection')) res.setHeader(name, headers[name]!);
}

/**
 * {@link sendJson} for a body already serialized. An answer sent while the request body is still arriving keeps
 * the connection, the rest of the body bounded ({@link boundRestOfBody}); one after which the connection closes
 * ({@link closesAfter}) is written at once and ended only after the body ({@link endAfterBody}), or the close would
 * reset the connection under the upload and the client would never read the answer. Over HTTP/2 either ends at once,
 * its stream reset after it ({@link endBeforeBody}).
 */
export function sendJsonText(res: ServerResponse, status: number, json: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  const stream = http2StreamOf(res);
  setHeaders(res, headers, stream !== undefined);
  // One writeHead: Node merges these with any header set before, and when there is none skips its per-header
  // bookkeeping. An object, not a flat list, which wrappers of writeHead (on-headers, under compression and morgan) read.
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  const arriving = arrivingBody(res);
  if (arriving && stream) return endBeforeBody(res, stream, json);
  if (arriving && closesAfter(res, headers)) {
    res.write(json);
    return endAfterBody(arriving, res);
  }
  endWith(res, json);
  if (arriving) boundRestOfBody(arriving);
}

/** How much of a large answer is handed to the socket per write. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Ends a response with `text`; a large one is written a chunk at a time as the socket drains (backpressure), so
 * the answer is held once, never queued whole in the socket a second time, and each `drain` shows the client reads.
 * What it holds back counts among the answer's waiting bytes ({@link holdUnsent}).
 */
export function endWith(res: ServerResponse, text: string): void {
  if (text.length <= CHUNK_BYTES) return void res.end(text);
  const bytes = Buffer.from(text);
  let offset = 0;
  holdUnsent(res, () => bytes.length - Math.min(offset, bytes.length));
  const pump = (): void => {
    while (offset < bytes.length) {
      const chunk = bytes.subarray(offset, (offset += CHUNK_BYTES));
      if (!res.write(chunk) && offset < bytes.length) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

/** Writes a one-line plain-text answer (the fallthrough's; it speaks no error dialect). */
export function sendText(res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.statusCode = status;
  const stream = http2StreamOf(res);
  setHeaders(res, headers, stream !== undefined);
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  const arriving = arrivingBody(res);
  if (arriving && stream) return endBeforeBody(res, stream, `${text}\n`);
  if (arriving && closesAfter(res, headers)) {
    res.write(`${text}\n`);
    return endAfterBody(arriving, res);
  }
  res.end(`${text}\n`);
  if (arriving) boundRestOfBody(arriving);
}

/** Acceptance: the answer to a notification, 202 with an empty body. */
export function sendAcceptance(res: ServerResponse): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.statusCode = 202;
  res.setHeader('content-length', '0');
  res.end();
}

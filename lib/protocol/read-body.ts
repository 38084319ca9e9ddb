import type { IncomingMessage } from 'node:http';

import type { ShutdownDeadline, WorkUnderWay } from '../contracts/shutdown-deadline.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import type { BoundMember, ByteBound } from '../util/byte-bound.js';
import { http2StreamOf } from '../util/node-http.js';
import { whenSettled } from '../util/quiet-promise.js';
import { JsonValueCounter } from './json-values.js';

/** Why a body read ended without a body. */
export type BodyReadFailure = 'body_too_large' | 'too_many_values' | 'stalled_read' | 'past_deadline' | 'crowded_out' | 'aborted' | 'shutting_down';

/** Thrown by {@link readBody} when the body cannot be had. */
export class BodyReadError extends Error {
  override readonly name = 'BodyReadError';
  constructor(readonly failure: BodyReadFailure) {
    super(failure);
  }
}

const NO_BYTES: Buffer = Buffer.alloc(0);

/** The room a body read as it arrives gets first (its declared length where smaller), doubled as it fills. */
const FIRST_ROOM = 16 * 1024;

/**
 * A buffer holding the `used` bytes of `from` with room for `needed`: twice the room or more, at least
 * {@link FIRST_ROOM}, no more than `limit` (the body's declared length or ceiling) unless `needed` is.
 */
function grown(from: Buffer, used: number, needed: number, limit: number): Buffer {
  const to = Buffer.allocUnsafe(Math.max(needed, Math.min(Math.max(2 * from.length, FIRST_ROOM), limit)));
  from.copy(to, 0, 0, used);
  return to;
}

/**
 * Reads a request body into one Buffer under a byte ceiling (an over-limit Content-Length fails before any read), a
 * value count (each chunk counted as it arrives, so the check costs no pass of its own and stops the read early), a
 * stall timeout (no byte for `timeoutMs`) and a deadline (all of it within `deadlineMs`); what it holds is counted
 * among the mount's arriving bodies (`arriving`, which may refuse it to make room), and the read is under way for
 * the shutdown deadline (`shutdown`, which ends it: `shutting_down`); after a failure the rest of the body is
 * drained, never buffered. Each chunk is copied into one growing buffer, which is what is counted: a chunk kept as it
 * came could hold far more than its length (over HTTP/2 a view on a whole socket read; over HTTP/1.1 a Buffer object
 * per byte of a body sent a byte a chunk).
 */
function readBody(
  req: IncomingMessage,
  maxBytes: number,
  timeoutMs: number,
  deadlineMs: number,
  values: JsonValueCounter,
  arriving: ByteBound,
  shutdown: ShutdownDeadline,
): Promise<Buffer> {
  // Gone before the read began (while an async auth provider decided, say): its close came and went unheard.
  if (req.destroyed) return Promise.reject(new BodyReadError('aborted'));
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    req.resume();
    return Promise.reject(new BodyReadError('body_too_large'));
  }
  const limit = declared !== undefined && Number.isSafeInteger(Number(declared)) ? Number(declared) : maxBytes;
  const read = new Promise<Buffer>((resolve, reject) => {
    let body: Buffer = NO_BYTES;
    let size = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const deadline = setTimeout(() => fail('past_deadline'), deadlineMs);
    const member: BoundMember = { cutForRoom: () => fail('crowded_out') };
    const underWay: WorkUnderWay = { whenClosed: () => whenSettled(read), endForShutdown: () => fail('shutting_down') };
    const cleanup = () => {
      arriving.forget(member);
      shutdown.settled(underWay);
      if (timer) clearTimeout(timer);
      clearTimeout(deadline);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      req.off('close', onClose);
    };
    const fail = (failure: BodyReadFailure) => {
      if (settled) return;
      settled = true;
      cleanup();
      body = NO_BYTES;
      req.resume();
      reject(new BodyReadError(failure));
    };
    const arm = () => {
      if (timer) timer.refresh();
      else timer = setTimeout(() => fail('stalled_read'), timeoutMs);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > maxBytes) return fail('body_too_large');
      if (values.over(chunk)) return fail('too_many_values');
      if (size + chunk.length > body.length) body = grown(body, size, size + chunk.length, limit);
      chunk.copy(body, size);
      size += chunk.length;
      arm();
      arriving.count(member, body.length, true);
    };
    const onEnd = () => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(size === body.length ? body : body.subarray(0, size));
    };
    const onError = () => fail('aborted');
    const onAborted = () => fail('aborted');
    const onClose = () => {
      if (!req.complete) fail('aborted');
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
    req.on('close', onClose);
    arm();
    shutdown.track(underWay); // past the deadline, ends it at once
  });
  return read;
}

/** The bounds a mount reads a body under: its ceiling, its value count, its stall timeout and its deadline. */
export type BodyBounds = Pick<McpResolvedOptions, 'maxBodyBytes' | 'maxBodyValues' | 'bodyReadTimeoutMs' | 'bodyReadDeadlineMs'>;

/** Reads a request body under a mount's bounds and its shutdown deadline ({@link readBody}). */
function readBodyWithin(req: IncomingMessage, bounds: BodyBounds, arriving: ByteBound, shutdown: ShutdownDeadline): Promise<Buffer> {
  return readBody(req, bounds.maxBodyBytes, bounds.bodyReadTimeoutMs, bounds.bodyReadDeadlineMs, new JsonValueCounter(bounds.maxBodyValues), arriving, shutdown);
}

/** Requests whose whole body {@link arrivedBody} took before Node's parser marked them complete (it does so a tick of the event loop later). */
const taken = new WeakSet<IncomingMessage>();

/**
 * Whether part of a request's body has yet to arrive (an answer sent now is sent before it): the request has a body
 * (a `Transfer-Encoding`, or a `Content-Length` other than 0; over HTTP/2, headers that did not end the stream), not
 * complete, nor all taken by the mount.
 */
export function bodyStillArriving(req: IncomingMessage): boolean {
  if (req.complete || req.destroyed || taken.has(req)) return false;
  const stream = http2StreamOf(req);
  if (stream) return !stream.endAfterHeaders;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The whole body when all of it has already arrived and nobody has read any of it (a small body comes in the same
 * packets as its headers): taken at once, under the same ceiling and value count as {@link readBody}, with no
 * listener or timer; undefined when it must be read as it arrives. Only a body with a `Content-Length` qualifies.
 */
function arrivedBody(req: IncomingMessage, bounds: BodyBounds): Buffer | undefined {
  const declared = req.headers['content-length'];
  if (declared === undefined || req.readableFlowing !== null || req.readableEncoding !== null || req.readableObjectMode) return undefined;
  const size = Number(declared);
  if (!(size <= bounds.maxBodyBytes) || req.readableLength !== size) return undefined;
  // read(size), not read(): Deno's read() returns only the first buffered chunk (Node's returns them all).
  const bytes = size === 0 ? Buffer.alloc(0) : (req.read(size) as Buffer);
  taken.add(req);
  req.resume(); // flowing, as a reader leaves it: the end of the message is consumed as it comes
  return boundedBytes(bytes, bounds);
}

/** A whole body already in hand (a host's raw bytes, or one that has arrived) under a mount's bounds: its ceiling, then its value count. */
export function boundedBytes(bytes: Buffer, bounds: BodyBounds): Buffer {
  if (bytes.length > bounds.maxBodyBytes) throw new BodyReadError('body_too_large');
  // The counter counts at most one value per byte: a body no longer than the value cap cannot exceed it.
  if (bytes.length > bounds.maxBodyValues && new JsonValueCounter(bounds.maxBodyValues).over(bytes)) throw new BodyReadError('too_many_values');
  return bytes;
}

/**
 * A request body under a mount's bounds: at once when it has all arrived (looked for again a microtask later: a
 * body that came in the packet of its headers is pushed once the request event's handlers return), else read as it
 * arrives ({@link readBodyWithin}), counted among the mount's `arriving` bodies meanwhile and ended by its `shutdown`
 * deadline. Throws, or rejects with, a {@link BodyReadError}.
 */
export function bodyWithin(req: IncomingMessage, bounds: BodyBounds, arriving: ByteBound, shutdown: ShutdownDeadline): Buffer | Promise<Buffer> {
  return arrivedBody(req, bounds) ?? Promise.resolve().then(() => arrivedBody(req, bounds) ?? readBodyWithin(req, bounds, arriving, shutdown));
}

import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';

import { describe, expect, it } from '@jest/globals';

import type { ShutdownDeadline, WorkUnderWay } from '../../lib/contracts/shutdown-deadline.js';
import { BodyReadError, bodyWithin, type BodyBounds } from '../../lib/protocol/read-body.js';
import { ByteBound } from '../../lib/util/byte-bound.js';
import { collectGarbage } from '../support/collect-garbage.js';

/** A mount's arriving bodies under a bound no test here reaches. */
const unbounded = () => new ByteBound(Number.MAX_SAFE_INTEGER);

/** A shutdown deadline that never passes. */
const noShutdown: ShutdownDeadline = { bounded: (pending) => pending, track: () => undefined, settled: () => undefined };

/** A shutdown deadline the test passes by hand: the work under way in `tracked`, the work settled in `passed`. */
function deadline(): ShutdownDeadline & { tracked: Set<WorkUnderWay>; passed: Set<WorkUnderWay> } {
  const tracked = new Set<WorkUnderWay>();
  const passed = new Set<WorkUnderWay>();
  return { tracked, passed, bounded: (pending) => pending, track: (work) => void tracked.add(work), settled: (work) => void (tracked.delete(work), passed.add(work)) };
}

const BOUNDS: BodyBounds = { maxBodyBytes: 4 * 1024 * 1024, maxBodyValues: 100_000, bodyReadTimeoutMs: 10_000, bodyReadDeadlineMs: 60_000 };

/**
 * A request whose whole body has arrived in two chunks, read as Deno's `IncomingMessage` reads: `read()` with no
 * size returns only the first buffered chunk, where Node's returns all of them (a body past 64 KiB comes so on Deno).
 */
function arrivedInChunks(chunks: readonly Buffer[]): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  req.headers = { 'content-length': String(size) };
  for (const chunk of chunks) req.push(chunk);
  const read = req.read.bind(req);
  req.read = (n?: number) => read(n ?? chunks[0]!.length);
  return req;
}

describe('bodyWithin, a body that has all arrived', () => {
  it('takes every chunk the request holds, on a runtime whose read() without a size returns the first only (Deno)', () => {
    const bytes = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } }));
    const req = arrivedInChunks([bytes.subarray(0, 65_536), bytes.subarray(65_536)]);
    expect(req.readableLength).toBe(bytes.length);
    const taken = bodyWithin(req, BOUNDS, unbounded(), noShutdown);
    expect(Buffer.isBuffer(taken) && { bytes: taken.length, same: taken.equals(bytes) }).toEqual({ bytes: bytes.length, same: true });
  });
});

/** A request with no Content-Length whose body arrives after the read began, in chunks of `sizes` bytes. */
function streamed(sizes: readonly number[]): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = { 'transfer-encoding': 'chunked' };
  setImmediate(() => {
    for (const size of sizes) req.push(Buffer.alloc(size, 0x20));
    req.push(null);
  });
  return req;
}

describe('bodyWithin, a body read as it arrives', () => {
  const bounds: BodyBounds = { ...BOUNDS, maxBodyBytes: 10 };

  it('takes a body of exactly maxBodyBytes, whatever its chunks', async () => {
    expect((await bodyWithin(streamed([4, 6]), bounds, unbounded(), noShutdown)).length).toBe(10);
  });

  it('refuses a body one byte over maxBodyBytes as body_too_large', async () => {
    const read = Promise.resolve(bodyWithin(streamed([4, 7]), bounds, unbounded(), noShutdown));
    await expect(read).rejects.toBeInstanceOf(BodyReadError);
    await expect(read).rejects.toMatchObject({ failure: 'body_too_large' });
  });

  it.each([
    ['ends', [4, 6]],
    ['is refused', [4, 7]],
  ])('leaves no timer when it %s: neither its stall timer nor its deadline keeps its closure, and its body, alive', async (_how, sizes) => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    await Promise.resolve(bodyWithin(streamed(sizes), bounds, unbounded(), noShutdown)).catch(() => undefined);
    expect(timers()).toBe(before);
  });
});

/** A request with no Content-Length whose body arrives only as the test pushes it. */
function pushedByHand(): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = { 'transfer-encoding': 'chunked' };
  return req;
}

describe("bodyWithin, bodies read together under the mount's arriving bytes", () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('refuses the read whose last bytes arrived least recently (crowded_out) when another takes them past the bound; the other reads on', async () => {
    const arriving = new ByteBound(40 * 1024);
    const [stalled, sending] = [pushedByHand(), pushedByHand()];
    const first = Promise.resolve(bodyWithin(stalled, BOUNDS, arriving, noShutdown));
    const second = Promise.resolve(bodyWithin(sending, BOUNDS, arriving, noShutdown));
    await settle();
    stalled.push(Buffer.alloc(6, 0x20));
    await settle();
    expect(arriving.held).toBe(16 * 1024); // the room its read took, not the 6 bytes in it
    sending.push(Buffer.alloc(30 * 1024, 0x20));
    await expect(first).rejects.toMatchObject({ failure: 'crowded_out' });
    expect(arriving.held).toBe(30 * 1024);
    sending.push(Buffer.alloc(30 * 1024, 0x20)); // alone past the bound: read on
    sending.push(null);
    expect((await second).length).toBe(60 * 1024);
    expect(arriving.held).toBe(0);
  });

  it.each([
    ['its Content-Length, when that is less than the first room', { 'content-length': '100' }, [6, 94], 100],
    ['no more room than a chunk filling it exactly needs', { 'transfer-encoding': 'chunked' }, [16 * 1024 - 1, 1], 16 * 1024],
  ])('gives a body read as it arrives %s', async (_what, headers, sizes, room) => {
    const arriving = new ByteBound(Number.MAX_SAFE_INTEGER);
    const req = pushedByHand();
    req.headers = headers;
    const read = Promise.resolve(bodyWithin(req, BOUNDS, arriving, noShutdown));
    await settle();
    for (const size of sizes) req.push(Buffer.alloc(size, 0x20));
    await settle();
    expect(arriving.held).toBe(room);
    req.push(null);
    expect((await read).length).toBe(sizes[0]! + sizes[1]!);
  });

  it('holds a body sent a byte a chunk as one buffer, counted by its room', async () => {
    const arriving = new ByteBound(Number.MAX_SAFE_INTEGER);
    const req = pushedByHand();
    const read = Promise.resolve(bodyWithin(req, BOUNDS, arriving, noShutdown));
    await settle();
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(20_000) } });
    for (const byte of Buffer.from(text)) req.push(Buffer.from([byte]));
    await settle();
    expect(arriving.held).toBe(32 * 1024);
    req.push(null);
    expect((await read).toString()).toBe(text);
  });

  it('keeps no chunk that is a view on a larger buffer (over HTTP/2, a whole socket read)', async () => {
    const req = pushedByHand();
    const read = Promise.resolve(bodyWithin(req, BOUNDS, unbounded(), noShutdown));
    await settle();
    const sent = (): WeakRef<ArrayBuffer> => {
      const socketRead = new ArrayBuffer(1024 * 1024);
      req.push(Buffer.from(socketRead, 0, 1).fill(0x20));
      return new WeakRef(socketRead);
    };
    const socketRead = sent();
    await settle();
    await collectGarbage();
    expect(socketRead.deref()).toBeUndefined();
    req.push(null);
    expect((await read).length).toBe(1);
  });
});

/** How many listeners of each event a read sets are left on `req`. */
const listeners = (req: IncomingMessage) => ['data', 'end', 'error', 'aborted', 'close'].map((event) => req.listenerCount(event));

describe('bodyWithin, a read the shutdown deadline ends', () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('is under way until it ends; ended (shutting_down), it lets go at once: no listener left, no byte counted', async () => {
    const arriving = new ByteBound(Number.MAX_SAFE_INTEGER);
    const shutdown = deadline();
    const req = pushedByHand();
    const read = Promise.resolve(bodyWithin(req, BOUNDS, arriving, shutdown));
    await settle();
    req.push(Buffer.alloc(6, 0x20));
    await settle();
    expect([shutdown.tracked.size, arriving.held, req.listenerCount('data')]).toEqual([1, 16 * 1024, 1]);
    const [work] = shutdown.tracked;
    work!.endForShutdown();
    await expect(read).rejects.toMatchObject({ failure: 'shutting_down' });
    expect([shutdown.tracked.size, shutdown.passed.has(work!), arriving.held, ...listeners(req)]).toEqual([0, true, 0, 0, 0, 0, 0, 0]);
    await work!.whenClosed(); // settled
  });

  it('settles its work when it ends on its own', async () => {
    const shutdown = deadline();
    const req = pushedByHand();
    const read = Promise.resolve(bodyWithin(req, BOUNDS, unbounded(), shutdown));
    await settle();
    req.push(Buffer.from('{}'));
    req.push(null);
    expect((await read).toString()).toBe('{}');
    expect([shutdown.tracked.size, shutdown.passed.size, ...listeners(req)]).toEqual([0, 1, 0, 0, 0, 0, 0]);
  });
});

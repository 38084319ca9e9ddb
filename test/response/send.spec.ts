import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

import { describe, expect, it } from '@jest/globals';

import { endWith } from '../../lib/response/send.js';

/** A response whose socket takes `room` bytes before a write reports a full buffer; `drain` is the test's to emit. */
function fakeResponse(room: number) {
  const res = new EventEmitter() as EventEmitter & { writes: number[]; calls: string[]; ended: boolean; write(chunk: Buffer): boolean; end(text?: string): void };
  let taken = 0;
  res.writes = [];
  res.calls = [];
  res.ended = false;
  res.write = (chunk: Buffer) => {
    res.calls.push('write');
    res.writes.push(chunk.length);
    taken += chunk.length;
    return taken < room;
  };
  res.end = (text?: string) => {
    res.calls.push(text === undefined ? 'end' : 'end(text)');
    if (text !== undefined) res.writes.push(Buffer.byteLength(text));
    res.ended = true;
  };
  return res;
}

describe('endWith', () => {
  it('hands a large answer to the socket 64 KiB at a time, waiting for each drain, so it is never queued whole', () => {
    const res = fakeResponse(64 * 1024);
    endWith(res as unknown as ServerResponse, 'x'.repeat(200 * 1024));
    expect(res.writes).toEqual([64 * 1024]);
    expect(res.ended).toBe(false);
    for (let i = 0; i < 3; i++) res.emit('drain');
    expect(res.writes).toEqual([64 * 1024, 64 * 1024, 64 * 1024, 8 * 1024]);
    expect(res.ended).toBe(true);
  });

  it('ends a small answer in one call, its text handed to end() as it is (no copy into a buffer, no write)', () => {
    const res = fakeResponse(1);
    endWith(res as unknown as ServerResponse, 'x'.repeat(64 * 1024));
    expect(res.writes).toEqual([64 * 1024]);
    expect(res.calls).toEqual(['end(text)']);
    expect(res.ended).toBe(true);
  });
});

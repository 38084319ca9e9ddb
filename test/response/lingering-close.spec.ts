import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';

import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';

import { LINGERING_CLOSE, boundRestOfBody, endAfterBody } from '../../lib/response/lingering-close.js';

/** A request body still arriving (a stream with `complete` false), and a response that counts its ends. */
function exchange(complete = false) {
  const req = Object.assign(new PassThrough(), { complete }) as unknown as IncomingMessage & PassThrough;
  const end = jest.fn();
  return { req, res: { end } as unknown as ServerResponse, end };
}

describe('the lingering close: a refused upload is read and discarded, within bounds, before the response ends', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('ends at once when the body is complete already', () => {
    const { req, res, end } = exchange(true);
    endAfterBody(req, res);
    expect(end).toHaveBeenCalledTimes(1);
  });

  it('ends when the body ends, not before', () => {
    const { req, res, end } = exchange();
    endAfterBody(req, res);
    req.emit('data', Buffer.alloc(1024));
    jest.advanceTimersByTime(LINGERING_CLOSE.idleMs - 1);
    expect(end).not.toHaveBeenCalled();
    req.emit('end');
    expect(end).toHaveBeenCalledTimes(1);
  });

  it(`ends once more than ${LINGERING_CLOSE.maxBytes} bytes were discarded, and once only however much more arrives`, () => {
    const { req, res, end } = exchange();
    endAfterBody(req, res);
    const chunk = Buffer.alloc(1024 * 1024);
    for (let sent = 0; sent < LINGERING_CLOSE.maxBytes; sent += chunk.length) req.emit('data', chunk);
    expect(end).not.toHaveBeenCalled();
    req.emit('data', chunk);
    expect(end).toHaveBeenCalledTimes(1);
    req.emit('data', chunk);
    req.emit('end');
    expect(end).toHaveBeenCalledTimes(1);
  });

  it('ends at once when the request was destroyed (its client left)', () => {
    const { req, res, end } = exchange();
    req.destroy();
    endAfterBody(req, res);
    expect(end).toHaveBeenCalledTimes(1);
  });

  it('ends when the request closes before its body ended', () => {
    const { req, res, end } = exchange();
    endAfterBody(req, res);
    req.emit('close');
    expect(end).toHaveBeenCalledTimes(1);
  });

  it(`keeps reading a body that trickles in, a chunk within every ${LINGERING_CLOSE.idleMs} ms, until ${LINGERING_CLOSE.maxMs} ms`, () => {
    const { req, res, end } = exchange();
    endAfterBody(req, res);
    for (let t = 0; t < LINGERING_CLOSE.maxMs - LINGERING_CLOSE.idleMs; t += LINGERING_CLOSE.idleMs / 2) {
      req.emit('data', Buffer.alloc(10));
      jest.advanceTimersByTime(LINGERING_CLOSE.idleMs / 2);
    }
    expect(end).not.toHaveBeenCalled();
  });

  it(`ends after ${LINGERING_CLOSE.idleMs} ms without a byte`, () => {
    const { req, res, end } = exchange();
    endAfterBody(req, res);
    jest.advanceTimersByTime(LINGERING_CLOSE.idleMs);
    expect(end).toHaveBeenCalledTimes(1);
  });

  it(`ends after ${LINGERING_CLOSE.maxMs} ms in all, however steadily bytes trickle in`, () => {
    const { req, res, end } = exchange();
    endAfterBody(req, res);
    for (let t = 0; t < LINGERING_CLOSE.maxMs; t += LINGERING_CLOSE.idleMs / 2) {
      req.emit('data', Buffer.alloc(10));
      jest.advanceTimersByTime(LINGERING_CLOSE.idleMs / 2);
    }
    expect(end).toHaveBeenCalledTimes(1);
  });
});

describe('the rest of a body an answer went out before: kept reading, the connection closed only past the bounds', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  /** A body still arriving on a socket whose closes are counted. */
  function arriving() {
    const destroy = jest.fn();
    const req = Object.assign(new PassThrough(), { complete: false, socket: { destroy } }) as unknown as IncomingMessage & PassThrough;
    boundRestOfBody(req);
    return { req, destroy };
  }

  it('keeps the connection when the body ends within the bounds', () => {
    const { req, destroy } = arriving();
    req.emit('data', Buffer.alloc(1024));
    req.emit('end');
    jest.advanceTimersByTime(LINGERING_CLOSE.maxMs * 2);
    expect(destroy).not.toHaveBeenCalled();
  });

  it(`closes it after ${LINGERING_CLOSE.idleMs} ms without a byte`, () => {
    const { destroy } = arriving();
    jest.advanceTimersByTime(LINGERING_CLOSE.idleMs - 1);
    expect(destroy).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(destroy).toHaveBeenCalledTimes(1);
  });

  it(`closes it after ${LINGERING_CLOSE.maxMs} ms in all, however steadily bytes trickle in`, () => {
    const { req, destroy } = arriving();
    for (let t = 0; t < LINGERING_CLOSE.maxMs; t += LINGERING_CLOSE.idleMs / 2) {
      req.emit('data', Buffer.alloc(10));
      jest.advanceTimersByTime(LINGERING_CLOSE.idleMs / 2);
    }
    expect(destroy).toHaveBeenCalledTimes(1);
  });

  it(`closes it once more than ${LINGERING_CLOSE.maxBytes} bytes were discarded`, () => {
    const { req, destroy } = arriving();
    const chunk = Buffer.alloc(1024 * 1024);
    for (let sent = 0; sent < LINGERING_CLOSE.maxBytes; sent += chunk.length) req.emit('data', chunk);
    expect(destroy).not.toHaveBeenCalled();
    req.emit('data', chunk);
    expect(destroy).toHaveBeenCalledTimes(1);
  });
});

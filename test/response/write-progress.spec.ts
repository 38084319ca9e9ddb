import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Http2ServerResponse } from 'node:http2';

import { describe, expect, it } from '@jest/globals';

import { holdUnsent, waitingBytes, watchProgress } from '../../lib/response/write-progress.js';

/** An HTTP/1.x response whose queues the test sets: the response's own, and its socket's write queue below it. */
function queuedResponse() {
  const state = { writableLength: 0, writeQueueSize: 0, bytesWritten: 0 };
  const res = {
    get writableLength() {
      return state.writableLength;
    },
    socket: {
      get bytesWritten() {
        return state.bytesWritten;
      },
      _handle: {
        get writeQueueSize() {
          return state.writeQueueSize;
        },
      },
    },
  } as unknown as ServerResponse;
  return { res, state };
}

describe('write progress of an HTTP/1.x answer', () => {
  it("counts as waiting what the response and its socket queue and what its writer holds back, not the socket's write queue again", () => {
    const { res, state } = queuedResponse();
    state.writableLength = 100; // a write under way counts whole here until it completes
    state.writeQueueSize = 40; // the part of it not yet handed on: within the 100
    expect(waitingBytes(res)).toBe(100);
    holdUnsent(res, () => 7);
    expect(waitingBytes(res)).toBe(107);
  });

  it('sees a client take part of one large write, as the socket write queue shrinks under it', () => {
    const { res, state } = queuedResponse();
    state.writableLength = 65_536; // one write, not yet done
    state.writeQueueSize = 60_000;
    state.bytesWritten = 65_536;
    const progress = watchProgress(res);
    expect(progress.took()).toBe(false);
    state.writeQueueSize = 50_000; // the client read 10,000 bytes of it
    expect(progress.took()).toBe(true);
    expect(progress.took()).toBe(false);
  });

  it('does not count as taken what a later write queues below the response, while the client takes nothing', () => {
    const { res, state } = queuedResponse();
    state.writableLength = 20_000; // the socket is full: what is written waits in the response
    state.bytesWritten = 20_000;
    const progress = watchProgress(res);
    state.writableLength += 15; // a keep-alive comment, queued: bytesWritten counts it too
    state.bytesWritten += 15;
    expect(progress.took()).toBe(false);
  });
});

/** An HTTP/2 answer (to `http2StreamOf`) whose queued bytes the test sets; `emit('drain')` says a write was taken whole. */
function http2Response() {
  const state = { writableLength: 0 };
  const events = new EventEmitter();
  const res = Object.create(Http2ServerResponse.prototype, {
    stream: { value: {} },
    writableLength: { get: () => state.writableLength },
    on: { value: (name: string, listener: () => void) => events.on(name, listener) },
    off: { value: (name: string, listener: () => void) => events.off(name, listener) },
  }) as ServerResponse;
  return { res, state, events };
}

describe('write progress of an HTTP/2 answer', () => {
  it("counts as waiting what its own stream queues, not its connection's", () => {
    const { res, state } = http2Response();
    state.writableLength = 300;
    expect(waitingBytes(res)).toBe(300);
  });

  it('sees a write its client took whole (drain), though more was written since and as much waits as before', () => {
    const { res, state, events } = http2Response();
    state.writableLength = 1000;
    const progress = watchProgress(res);
    expect(progress.took()).toBe(false);
    events.emit('drain');
    expect(progress.took()).toBe(true);
    expect(progress.took()).toBe(false);
    state.writableLength = 400;
    expect(progress.took()).toBe(true);
    progress.stop();
    events.emit('drain');
    expect(progress.took()).toBe(false);
  });
});

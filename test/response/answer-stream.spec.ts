import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

import { describe, expect, it, jest } from '@jest/globals';

import { requestRecord } from '../../lib/contracts/request-record.js';
import { AnswerStream } from '../../lib/response/answer-stream.js';
import { answerBounds } from '../support/answer-bounds.js';
import { recordEvents } from '../support/mcp-client.js';

describe('AnswerStream', () => {
  it('names the request of a cancellation from the request it was attached with, not from the response (some runtimes give it no req)', async () => {
    const request = new IncomingMessage(new Socket());
    requestRecord(request).id = 'call-7';
    const response = new ServerResponse(request);
    Reflect.deleteProperty(response, 'req');
    const answer = AnswerStream.attach(request, response, 'tools/call', answerBounds());
    const events = await recordEvents(['mcp:request:cancelled'], async () => {
      response.emit('close');
    });
    expect(events.map((e) => e.message)).toEqual([{ mount: '/mcp', method: 'tools/call', id: 'call-7', by: 'close' }]);
    expect(answer.signal.aborted).toBe(true);
  });

  it('writes no keep-alive comment while its socket is backed up, so a client that stops reading is not sent more', () => {
    jest.useFakeTimers();
    try {
      const request = new IncomingMessage(new Socket());
      const response = new ServerResponse(request);
      const written: string[] = [];
      // A socket that takes nothing more: every write reports a full buffer, and no drain comes.
      response.write = ((chunk: string) => (written.push(String(chunk)), false)) as typeof response.write;
      const answer = AnswerStream.attach(request, response, 'tools/call', answerBounds({ keepAliveMs: 1_000 }));
      expect(answer.notify({ method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })).toBe(true);
      expect(answer.backedUp).toBe(true);
      const held = answer.buffered;
      jest.advanceTimersByTime(5_500);
      expect(written).toHaveLength(1);
      expect(answer.buffered).toBe(held);
    } finally {
      jest.useRealTimers();
    }
  });

  it('is no cancellation when a legacy notifications/cancelled comes after the final response: no event, its signal not aborted', async () => {
    const request = new IncomingMessage(new Socket());
    const answer = AnswerStream.attach(request, new ServerResponse(request), 'tools/call', answerBounds());
    answer.respond({ jsonrpc: '2.0', id: 1, result: {} });
    const events = await recordEvents(['mcp:request:cancelled'], async () => answer.endForCancellation('too late'));
    expect(events).toEqual([]);
    expect(answer.signal.aborted).toBe(false);
  });

  it.each([
    ['sent its headers', (response: ServerResponse) => void response.flushHeaders(), true],
    ['ended it', (response: ServerResponse) => void response.end(), false],
  ])("writes no event once the host's own code %s: nothing is written after it", (_what, hostWrites, open) => {
    const request = new IncomingMessage(new Socket());
    const response = new ServerResponse(request);
    const answer = AnswerStream.attach(request, response, 'tools/call', answerBounds());
    hostWrites(response);
    expect(answer.notify({ method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })).toBe(false);
    expect(answer.streaming).toBe(false);
    expect(answer.open).toBe(open);
  });
});

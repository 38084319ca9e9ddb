import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

import { describe, expect, it, jest } from '@jest/globals';

import { requestRecord } from '../../lib/contracts/request-record.js';
import { AnswerStream } from '../../lib/response/answer-stream.js';
import { WaitingAnswers } from '../../lib/response/waiting-answers.js';
import { answerBounds } from '../support/answer-bounds.js';
import { recordEvents } from '../support/mcp-client.js';
import { sseMessages } from '../support/sse.js';

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

describe("AnswerStream's messages queued in one tick", () => {
  it('count among the waiting answers, as they are queued, the bytes their events take on the wire', async () => {
    const request = new IncomingMessage(new Socket());
    const response = new ServerResponse(request);
    const written: Buffer[] = [];
    response.write = ((chunk: string | Buffer) => (written.push(Buffer.from(chunk)), true)) as typeof response.write;
    const waiting = new WaitingAnswers({ maxWaitingBytes: 128 * 1024 * 1024 });
    const answer = AnswerStream.attach(request, response, 'subscriptions/listen', answerBounds({ waiting }));
    const messages = [{ uri: 'test://host/a' }, { uri: 'test://host/é…' }].map((params) =>
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params }),
    );
    for (const json of messages) expect(answer.queue(json, Buffer.byteLength(json))).toBe(true);
    const counted = waiting.held;
    await new Promise((resolve) => process.nextTick(resolve));
    expect(written).toHaveLength(1);
    expect(counted).toBe(written[0]!.length);
    expect(sseMessages(written[0]!.toString('utf8'))).toEqual(messages.map((json) => JSON.parse(json)));
  });

  it('follow what was held while the socket was backed up, and come before a final response sent in the same tick', async () => {
    const request = new IncomingMessage(new Socket());
    const response = new ServerResponse(request);
    const written: string[] = [];
    // A socket that takes nothing more: every write reports a full buffer, and no drain comes.
    response.write = ((chunk: string) => (written.push(String(chunk)), false)) as typeof response.write;
    response.end = ((chunk: string) => (written.push(String(chunk)), response)) as typeof response.end;
    const answer = AnswerStream.attach(request, response, 'subscriptions/listen', answerBounds());
    const json = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { n } });
    answer.queue(json(1), json(1).length);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(answer.backedUp).toBe(true); // the first tick's write found the socket full
    answer.queue(json(2), json(2).length);
    await new Promise((resolve) => process.nextTick(resolve)); // held, not written
    answer.queue(json(3), json(3).length);
    answer.respond({ jsonrpc: '2.0', id: 'listen', result: {} });
    expect(written).toHaveLength(2);
    expect(sseMessages(written[1]!)).toEqual([JSON.parse(json(2)), JSON.parse(json(3)), { jsonrpc: '2.0', id: 'listen', result: {} }]);
    expect(answer.buffered).toBe(0); // handed to the response: no longer held nor queued here
  });
});

describe('AnswerStream.queue', () => {
  it("writes nothing, and leaves the answer JSON, when the client's Accept excludes SSE", () => {
    const request = new IncomingMessage(new Socket());
    request.headers.accept = 'application/json';
    const response = new ServerResponse(request);
    const answer = AnswerStream.attach(request, response, 'subscriptions/listen', answerBounds());
    expect(answer.queue('{}', 2)).toBe(false);
    expect(answer.streaming).toBe(false);
    expect(response.headersSent).toBe(false);
  });
});

describe('AnswerStream keep-alives', () => {
  it('stops once the final response is sent, though its response still drains: no comment after it, nor the hook', () => {
    jest.useFakeTimers();
    try {
      const request = new IncomingMessage(new Socket());
      const response = new ServerResponse(request);
      const answer = AnswerStream.attach(request, response, 'tools/call', answerBounds({ keepAliveMs: 1_000 }));
      let hooks = 0;
      answer.onKeepAlive(() => void hooks++);
      expect(answer.notify({ method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })).toBe(true);
      answer.respond({ jsonrpc: '2.0', id: 1, result: {} }); // no close yet: a slow reader has still to take it
      const written: unknown[] = [];
      response.write = ((chunk: unknown) => (written.push(chunk), false)) as typeof response.write;
      jest.advanceTimersByTime(3_500);
      expect(written).toEqual([]);
      expect(hooks).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it("runs its writer's keep-alive hook at each one, whether or not the comment could be written", () => {
    jest.useFakeTimers();
    try {
      const request = new IncomingMessage(new Socket());
      const response = new ServerResponse(request);
      response.write = (() => false) as typeof response.write; // backed up from the first write on
      const answer = AnswerStream.attach(request, response, 'subscriptions/listen', answerBounds({ keepAliveMs: 1_000 }));
      let hooks = 0;
      answer.onKeepAlive(() => void hooks++);
      expect(answer.notify({ method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })).toBe(true);
      expect(answer.backedUp).toBe(true);
      jest.advanceTimersByTime(3_500);
      expect(hooks).toBe(3);
    } finally {
      jest.useRealTimers();
    }
  });
});

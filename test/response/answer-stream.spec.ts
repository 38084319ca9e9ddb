import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

import { describe, expect, it } from '@jest/globals';

import { requestRecord } from '../../lib/contracts/request-record.js';
import { AnswerStream } from '../../lib/response/answer-stream.js';
import { MountClosing } from '../../lib/response/mount-closing.js';
import { recordEvents } from '../support/mcp-client.js';

describe('AnswerStream', () => {
  it('names the request of a cancellation from the request it was attached with, not from the response (some runtimes give it no req)', async () => {
    const request = new IncomingMessage(new Socket());
    requestRecord(request).id = 'call-7';
    const response = new ServerResponse(request);
    Reflect.deleteProperty(response, 'req');
    const answer = AnswerStream.attach(request, response, 'tools/call', 30_000, 30_000, '/mcp', new MountClosing({ shutdownGraceMs: 10_000 }));
    const events = await recordEvents(['mcp:request:cancelled'], async () => {
      response.emit('close');
    });
    expect(events.map((e) => e.message)).toEqual([{ mount: '/mcp', method: 'tools/call', id: 'call-7', by: 'close' }]);
    expect(answer.signal.aborted).toBe(true);
  });
});

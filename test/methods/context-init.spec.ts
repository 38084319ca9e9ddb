import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

import { describe, expect, it } from '@jest/globals';

import { McpContext, type McpContextInit } from '../../lib/context/mcp-context.js';
import { contextInit } from '../../lib/methods/context-init.js';
import { AnswerStream } from '../../lib/response/answer-stream.js';
import { answerBounds } from '../support/answer-bounds.js';

/** The init a context was built from. */
const initOf = (ctx: McpContext): McpContextInit => (ctx as unknown as { init: McpContextInit }).init;

// Every context init has one shape (CONTRIBUTING, Performance): contextInit and McpContext.withAction each spell
// the fields, and must spell them in one order.
describe('contextInit', () => {
  const request = new IncomingMessage(new Socket());
  request.headers['x-trace'] = '1';
  const answer = AnswerStream.attach(request, new ServerResponse(request), 'tools/call', answerBounds());
  const call = { record: { meta: {} }, request, hostRequest: { host: true }, answer };

  it("takes the routed call's record, headers, host request and answer stream, and what the handler adds", () => {
    const init = contextInit(call, { tool: 't', action: 'a', signal: answer.signal });
    expect(init).toMatchObject({ record: call.record, headers: { 'x-trace': '1' }, request: call.hostRequest, answer, tool: 't', action: 'a', signal: answer.signal });
    expect(contextInit(call, { tool: 't' }).action).toBeUndefined();
  });

  it('gives an action context (withAction) an init with the same keys in the same order', () => {
    const base = new McpContext(contextInit(call, { tool: 't' }));
    const withAction = initOf(base.withAction('create'));
    expect(Object.keys(withAction)).toEqual(Object.keys(initOf(base)));
    expect(withAction).toMatchObject({ tool: 't', action: 'create', request: call.hostRequest });
  });
});

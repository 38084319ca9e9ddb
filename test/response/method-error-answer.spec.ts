import { describe, expect, it } from '@jest/globals';

import type { McpRequestRecord } from '../../lib/contracts/request-record.js';
import { McpMethodError } from '../../lib/errors/mcp-method.error.js';
import { methodErrorAnswer } from '../../lib/response/method-error-answer.js';

const record = (era: 'modern' | 'legacy', kind: McpRequestRecord['kind'], id = 'x-1') => ({ era, kind, id }) as McpRequestRecord;
const error = (httpStatus?: number) => new McpMethodError(-32602, 'no such thing', undefined, httpStatus);

describe('methodErrorAnswer', () => {
  it.each([
    ['a modern request: the error’s status, its id', record('modern', 'request'), error(404), 404, 'x-1'],
    ['a legacy request: 200 (its client reads errors from a 2xx only), its id', record('legacy', 'request'), error(404), 200, 'x-1'],
    ['a legacy response (a client’s answer): an error status, no id', record('legacy', 'response'), error(), 400, undefined],
    ['a legacy response, the error’s own error status kept', record('legacy', 'response'), error(503), 503, undefined],
    ['a modern notification: an error status, no id', record('modern', 'notification', undefined), error(), 400, undefined],
  ])('%s', (_what, answered, thrown, status, id) => {
    const answer = methodErrorAnswer(thrown, answered);
    expect(answer.status).toBe(status);
    expect(answer.body.id).toBe(id);
    expect(answer.body.error).toEqual({ code: -32602, message: 'no such thing' });
  });
});

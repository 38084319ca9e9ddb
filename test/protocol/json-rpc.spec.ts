import { describe, expect, it } from '@jest/globals';

import { isSharedResult, resultEnvelopeJson, sharedResult } from '../../lib/protocol/json-rpc.js';

describe('a shared result', () => {
  it('is frozen, so no handler can change what later requests get, and is serialized once, each envelope with its own id', () => {
    const list = { resultType: 'complete', tools: [{ name: 'echo' }] };
    const shared = sharedResult(list);
    expect([isSharedResult(shared), Object.isFrozen(shared)]).toEqual([true, true]);
    expect(() => Object.assign(shared, { nextCursor: 'x' })).toThrow(TypeError);
    expect([resultEnvelopeJson(1, shared), resultEnvelopeJson('a', shared)]).toEqual([
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: list }),
      JSON.stringify({ jsonrpc: '2.0', id: 'a', result: list }),
    ]);
  });

  it('is told from a result that is not shared, which is serialized whole each time', () => {
    const result = { resultType: 'complete', content: [] };
    expect(isSharedResult(result)).toBe(false);
    expect(resultEnvelopeJson(7, result)).toBe(JSON.stringify({ jsonrpc: '2.0', id: 7, result }));
  });
});

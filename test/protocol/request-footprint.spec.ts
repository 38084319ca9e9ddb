import { describe, expect, it } from '@jest/globals';

import type { McpRequestRecord } from '../../lib/contracts/request-record.js';
import { MAX_NESTING_DEPTH, nestingDepth, valuesWithin } from '../../lib/protocol/nesting.js';
import { HEAP_BYTES_PER_VALUE, requestFootprint } from '../../lib/protocol/request-footprint.js';
import { HeaderLines } from '../../lib/util/header-lines.js';

/** A record as the parse step leaves it: the parsed message and its body's size as sent. */
function parsed(message: unknown): McpRequestRecord {
  return { message, bodyBytes: Buffer.byteLength(JSON.stringify(message)) } as unknown as McpRequestRecord;
}

describe('requestFootprint', () => {
  it('counts a body of many small values at HEAP_BYTES_PER_VALUE a value, every value at every depth', () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { list: [0, [1, { a: null }], 'x'] } } };
    // message, jsonrpc, id, method, params, name, arguments, list, 0, [..], 1, {a}, null, 'x'
    expect(requestFootprint(parsed(message))).toBe(14 * HEAP_BYTES_PER_VALUE);
    expect(requestFootprint(parsed({ list: new Array(10_000).fill(0) }))).toBe(10_002 * HEAP_BYTES_PER_VALUE);
  });

  it('counts a body of few long values by its bytes', () => {
    const record = parsed({ text: 'x'.repeat(100_000) });
    expect(requestFootprint(record)).toBe(record.bodyBytes);
  });

  it("counts a legacy request's copied message, params and _meta keys once more: they are held twice while it waits", () => {
    const keys = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...keys('k', 1000), _meta: keys('m', 500) } };
    const modern = parsed(message);
    // message, jsonrpc, id, method, params, 1,000 k, _meta, 500 m
    expect(requestFootprint(modern)).toBe(1506 * HEAP_BYTES_PER_VALUE);
    // the copies: 4 message keys, 1,001 params keys (with _meta), 500 _meta keys
    expect(requestFootprint({ ...modern, era: 'legacy' } as McpRequestRecord)).toBe((1506 + 4 + 1001 + 500) * HEAP_BYTES_PER_VALUE);
    expect(requestFootprint({ ...modern, era: 'modern' } as McpRequestRecord)).toBe(1506 * HEAP_BYTES_PER_VALUE);
  });

  it('counts its header lines beside the body: their characters, and HEAP_BYTES_PER_VALUE a line', () => {
    const record = parsed({ text: 'x'.repeat(10_000) });
    const bare = requestFootprint(record);
    const raw = ['Content-Type', 'application/json', 'X-Pad', 'p'.repeat(300), 'x-pad', 'q'];
    record.lines = new HeaderLines(raw);
    expect(requestFootprint(record)).toBe(bare + (12 + 16 + 5 + 300 + 5 + 1) + 3 * HEAP_BYTES_PER_VALUE);
  });

  it('counts a body holding a character past ASCII at two bytes a UTF-16 unit when that is more than its bytes', () => {
    const wide = `${'x'.repeat(100_000)}€`; // 100,003 bytes in UTF-8; held at two bytes a unit, 200,002 bytes
    const text = JSON.stringify({ text: wide });
    const record = { ...parsed({ text: wide }), bodyUnits: text.length };
    expect(requestFootprint(record)).toBe(2 * text.length);
    const cjk = '語'.repeat(100_000); // 300,000 bytes in UTF-8, 200,000 held: its bytes are more
    const cjkRecord = { ...parsed({ text: cjk }), bodyUnits: JSON.stringify({ text: cjk }).length };
    expect(requestFootprint(cjkRecord)).toBe(cjkRecord.bodyBytes);
  });

  it('counts a body a host parser read (its size unknown) at two bytes a UTF-16 unit of its strings and keys', () => {
    const message = { text: 'x'.repeat(100_000), list: ['ab', { cd: 'ef' }] };
    // text (4) + 100,000, list (4), ab (2), cd (2), ef (2)
    expect(requestFootprint({ message } as unknown as McpRequestRecord)).toBe(2 * (4 + 100_000 + 4 + 2 + 2 + 2));
  });

  it('counts own keys only', () => {
    const inherited = Object.create({ hidden: [1, 2, 3] }) as Record<string, unknown>;
    inherited.own = 1;
    expect(requestFootprint({ message: inherited } as unknown as McpRequestRecord)).toBe(2 * HEAP_BYTES_PER_VALUE);
  });

  it('takes the values message validation counted (valuesWithin), which agree with its own walk', () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { list: [0, [1, { a: null }], 'x'], empty: {}, none: [] } } },
      { list: new Array(1000).fill({ k: [true, false] }) },
      [[], [[]], [[[{}]]]],
    ];
    for (const message of messages) {
      const walked = requestFootprint(parsed(message));
      expect(requestFootprint({ ...parsed(message), values: valuesWithin(message) })).toBe(walked);
    }
    expect(requestFootprint({ message: { a: 1 }, values: 5000 } as unknown as McpRequestRecord)).toBe(5000 * HEAP_BYTES_PER_VALUE);
  });
});

describe('valuesWithin', () => {
  const nested = (depth: number): unknown => (depth === 1 ? [] : [nested(depth - 1)]);

  it('counts every value, the root included, and none deeper than the bound', () => {
    expect(valuesWithin(7)).toBe(1);
    expect(valuesWithin({ a: [1, 2, { b: null }], c: 'x' })).toBe(7);
    expect(valuesWithin(nested(MAX_NESTING_DEPTH))).toBe(MAX_NESTING_DEPTH);
    expect(valuesWithin(nested(MAX_NESTING_DEPTH + 1))).toBeUndefined();
    expect(valuesWithin(nested(3), 2)).toBeUndefined();
  });
});

describe('nestingDepth', () => {
  it('counts the levels of objects and arrays down to the deepest, without recursion', () => {
    expect(nestingDepth('x')).toBe(0);
    expect(nestingDepth(null)).toBe(0);
    expect(nestingDepth({})).toBe(1);
    expect(nestingDepth({ a: 1, b: [2, { c: [] }], d: {} })).toBe(4);
    let deep: unknown = [];
    for (let i = 1; i < 100_000; i++) deep = [deep];
    expect(nestingDepth(deep)).toBe(100_000);
  });
});

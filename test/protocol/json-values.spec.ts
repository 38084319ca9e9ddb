import { describe, expect, it } from '@jest/globals';

import { JsonValueCounter } from '../../lib/protocol/json-values.js';

/** Whether `text`, fed in the given chunks, holds more than `max` values. */
const over = (max: number, ...chunks: string[]) => {
  const counter = new JsonValueCounter(max);
  return chunks.some((chunk) => counter.over(Buffer.from(chunk)));
};

describe('counting JSON values from bytes, before parsing', () => {
  it.each([
    ['an object of three members', '{"a":1,"b":2,"c":3}', 3],
    ['an array of arrays', '[[],[],[]]', 6],
    ['separators inside strings, escaped quotes included', '{"a":"x,{[\\",y"}', 1],
    ['a string ending in an escaped backslash', '["\\\\",1]', 2],
  ])('counts %s', (_what, text, count) => {
    expect(over(count, text)).toBe(false);
    expect(over(count - 1, text)).toBe(true);
  });

  it('counts the same however the body is cut into chunks (an escape split across two)', () => {
    const text = JSON.stringify({ a: 'q"u,o{t[e\\', b: [1, 2, { c: '\\"' }], d: ',' });
    const whole = [...Array(20).keys()].findIndex((max) => !over(max, text));
    expect(whole).toBeGreaterThan(0);
    for (let cut = 1; cut < text.length; cut++) {
      expect(over(whole, text.slice(0, cut), text.slice(cut))).toBe(false);
      expect(over(whole - 1, text.slice(0, cut), text.slice(cut))).toBe(true);
      // An empty chunk between the two halves (a stream may deliver one) changes nothing, after an escape too.
      expect(over(whole, text.slice(0, cut), '', text.slice(cut))).toBe(false);
      expect(over(whole - 1, text.slice(0, cut), '', text.slice(cut))).toBe(true);
    }
    expect(over(whole, ...text)).toBe(false); // one byte at a time
    expect(over(whole - 1, ...text)).toBe(true);
  });
});

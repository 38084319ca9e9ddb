import { describe, expect, it } from '@jest/globals';

import { decodeHeaderValue, plainHeaderValue } from '../../lib/protocol/header-value.js';

describe('mirrored header values', () => {
  it.each([
    ['a control character', 'tools\x00call'],
    ['DEL', 'tools/call\x7f'],
    ['a Latin-1 letter', 'tools/call\xe9'],
    ['a line feed', 'tools/call\nx'],
    ['a carriage return', 'tools/call\rx'],
  ])('refuses %s in a value never base64-wrapped, and in one that may be', (_case, raw) => {
    const problem = 'contains characters other than visible ASCII, space and tab';
    expect(plainHeaderValue(raw)).toEqual({ ok: false, problem });
    expect(decodeHeaderValue(raw)).toEqual({ ok: false, problem });
  });

  it('takes visible ASCII, space and tab as they are', () => {
    expect(plainHeaderValue('tools/call \t~')).toEqual({ ok: true, value: 'tools/call \t~' });
  });

  it('refuses the base64url alphabet inside the wrapper: the value is base64, strictly', () => {
    expect(decodeHeaderValue('=?base64?fn5-?=')).toEqual({ ok: false, problem: 'is not valid base64 inside =?base64?…?= (bad alphabet, length or padding)' });
    expect(decodeHeaderValue('=?base64?fn5+?=')).toEqual({ ok: true, value: '~~~' });
  });

  it('takes a value whose wrapper markers overlap as it is, not as an empty base64 payload', () => {
    expect(decodeHeaderValue('=?base64?=')).toEqual({ ok: true, value: '=?base64?=' });
    expect(decodeHeaderValue('=?base64??=')).toEqual({ ok: true, value: '' });
  });
});

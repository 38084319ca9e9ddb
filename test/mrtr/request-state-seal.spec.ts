import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { canonicalDigest, requestBinding } from '../../lib/mrtr/request-binding.js';
import { REQUEST_STATE_MAX_CHARS, RequestStateSeal, type RequestStateContent } from '../../lib/mrtr/request-state-seal.js';

const SECRET = 'unit-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const binding = requestBinding('mcp', 'tools/call', { name: 'greet', arguments: { a: 1 } }, undefined);
const content: RequestStateContent = { binding, round: 1, answers: { user_name: { action: 'accept', content: { name: 'Ada' } } }, toolState: { step: 1 } };

/** A seal on a clock the test moves. */
function clocked(secrets: string[] | undefined, ttlMs = 1000) {
  const clock = { now: 1_000_000 };
  return { seal: new RequestStateSeal(secrets, ttlMs, () => clock.now), clock };
}

describe('RequestStateSeal', () => {
  it('opens what it sealed, with the content intact', () => {
    const { seal } = clocked([SECRET]);
    const sealed = seal.seal(content);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(seal.open(sealed, binding)).toEqual({ ok: true, content });
  });

  it('leaves out an undefined tool state', () => {
    const { seal } = clocked([SECRET]);
    const opened = seal.open(seal.seal({ ...content, toolState: undefined }), binding);
    expect(opened.ok && opened.content.toolState).toBeUndefined();
  });

  it('refuses a state one tick past its expiry, not before', () => {
    const { seal, clock } = clocked([SECRET], 1000);
    const sealed = seal.seal(content);
    clock.now += 1000;
    expect(seal.open(sealed, binding).ok).toBe(true);
    clock.now += 1;
    expect(seal.open(sealed, binding)).toEqual({ ok: false, problem: 'expired' });
  });

  it('checks the tag before the expiry (an expired forgery is "tampered", not "expired")', () => {
    const { seal, clock } = clocked([SECRET]);
    const [v, p] = seal.seal(content).split('.');
    clock.now += 10_000;
    expect(seal.open(`${v}.${p}.${'A'.repeat(43)}`, binding)).toEqual({ ok: false, problem: 'tampered' });
  });

  it('refuses a state bound to another call or another principal', () => {
    const { seal } = clocked([SECRET]);
    const sealed = seal.seal(content);
    expect(seal.open(sealed, requestBinding('mcp', 'tools/call', { name: 'greet', arguments: { a: 2 } }, undefined))).toEqual({ ok: false, problem: 'other_call' });
    expect(seal.open(sealed, requestBinding('admin/mcp', 'tools/call', { name: 'greet', arguments: { a: 1 } }, undefined))).toEqual({ ok: false, problem: 'other_call' });
    expect(seal.open(sealed, requestBinding('mcp', 'tools/call', { name: 'greet', arguments: { a: 1 } }, 'alice'))).toEqual({ ok: false, problem: 'other_principal' });
  });

  it('opens with any configured secret and seals with the first (rotation)', () => {
    const OLD = 'old-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
    const oldSeal = new RequestStateSeal([OLD], 1000);
    const rotated = new RequestStateSeal([SECRET, OLD], 1000);
    expect(rotated.open(oldSeal.seal(content), binding).ok).toBe(true);
    expect(oldSeal.open(rotated.seal(content), binding)).toEqual({ ok: false, problem: 'tampered' });
    expect(new RequestStateSeal([SECRET], 1000).open(rotated.seal(content), binding).ok).toBe(true);
  });

  it('shares one random secret per process when none is configured', () => {
    const a = new RequestStateSeal(undefined, 1000);
    const b = new RequestStateSeal(undefined, 1000);
    expect(b.open(a.seal(content), binding).ok).toBe(true);
    expect(new RequestStateSeal([SECRET], 1000).open(a.seal(content), binding)).toEqual({ ok: false, problem: 'tampered' });
  });

  it.each([
    ['a wrong segment count', 'v1.abc'],
    ['another version', 'v9.abc.def'],
    ['a payload outside base64url', 'v1.ab+c.def'],
    ['a state over the size limit', `v1.${'a'.repeat(REQUEST_STATE_MAX_CHARS)}.b`],
  ])('refuses %s as malformed', (_case, sealed) => {
    expect(clocked([SECRET]).seal.open(sealed, binding)).toEqual({ ok: false, problem: 'malformed' });
  });

  it('refuses a correctly tagged payload that is not a sealed state as malformed', () => {
    const { seal } = clocked([SECRET]);
    const body = `v1.${Buffer.from(JSON.stringify({ hello: 'world' })).toString('base64url')}`;
    const tag = createHmac('sha256', SECRET).update(body).digest('base64url');
    expect(seal.open(`${body}.${tag}`, binding)).toEqual({ ok: false, problem: 'malformed' });
    const otherTag = seal.seal(content).split('.')[2]!;
    expect(seal.open(`${body}.${otherTag}`, binding)).toEqual({ ok: false, problem: 'tampered' });
  });

  it('refuses to seal more than it would open', () => {
    const { seal } = clocked([SECRET]);
    expect(() => seal.seal({ ...content, toolState: 'x'.repeat(REQUEST_STATE_MAX_CHARS) })).toThrow(RangeError);
  });
});

describe('canonicalDigest', () => {
  it('ignores object key order and undefined members, but not array order', () => {
    expect(canonicalDigest({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(canonicalDigest({ b: { d: 'x', c: [1, 2], e: undefined }, a: 1 }));
    expect(canonicalDigest([1, 2])).not.toBe(canonicalDigest([2, 1]));
    expect(canonicalDigest({ a: '1' })).not.toBe(canonicalDigest({ a: 1 }));
    expect(canonicalDigest({ 'a"b': 1 })).not.toBe(canonicalDigest({ a: 'b": 1' }));
  });

  it('digests any nesting depth without overflowing the stack', () => {
    const depth = 100_000;
    const deep = JSON.parse('['.repeat(depth) + ']'.repeat(depth));
    expect(canonicalDigest(deep)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

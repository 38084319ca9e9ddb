import { createHmac } from 'node:crypto';

import { describe, expect, it } from '@jest/globals';

import type { RequestStateCodec, RequestStateOpened } from '../../lib/contracts/request-state-codec.js';
import { HmacRequestStateCodec } from '../../lib/mrtr/hmac-request-state-codec.js';
import { canonicalDigest, requestBinding } from '../../lib/mrtr/request-binding.js';
import { REQUEST_STATE_MAX_CHARS, RequestStateSeal, type RequestStateContent } from '../../lib/mrtr/request-state-seal.js';

const SECRET = 'unit-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const binding = requestBinding('mcp', 'tools/call', { name: 'greet', arguments: { a: 1 } }, undefined);
const bound =
  (b = binding) =>
  () =>
    b;
const content: RequestStateContent = { binding, round: 1, answers: { user_name: { action: 'accept', content: { name: 'Ada' } } }, toolState: { step: 1 } };

/** A seal on a clock the test moves. */
function clocked(secrets: string[] | undefined, ttlMs = 1000) {
  const clock = { now: 1_000_000 };
  return { seal: new RequestStateSeal(new HmacRequestStateCodec(secrets), ttlMs, () => clock.now), clock };
}

describe('RequestStateSeal over the HMAC codec', () => {
  it('opens what it sealed, with the content intact', async () => {
    const { seal } = clocked([SECRET]);
    const sealed = await seal.seal(content);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(await seal.open(sealed, bound())).toEqual({ ok: true, content });
  });

  it('leaves out an undefined tool state', async () => {
    const { seal } = clocked([SECRET]);
    const opened = await seal.open(await seal.seal({ ...content, toolState: undefined }), bound());
    expect(opened.ok && opened.content.toolState).toBeUndefined();
  });

  it('refuses a state one tick past its expiry, not before', async () => {
    const { seal, clock } = clocked([SECRET], 1000);
    const sealed = await seal.seal(content);
    clock.now += 1000;
    expect((await seal.open(sealed, bound())).ok).toBe(true);
    clock.now += 1;
    expect(await seal.open(sealed, bound())).toEqual({ ok: false, problem: 'expired' });
  });

  it('bounds each round, not the call: the next round, sealed later, expires ttlMs after its own sealing (docs/mrtr.md)', async () => {
    const { seal, clock } = clocked([SECRET], 1000);
    const first = await seal.seal(content);
    clock.now += 900;
    const second = await seal.seal({ ...content, round: 2 });
    clock.now += 900;
    expect(await seal.open(first, bound())).toEqual({ ok: false, problem: 'expired' });
    expect(await seal.open(second, bound())).toEqual({ ok: true, content: { ...content, round: 2 } });
  });

  it('binds by plain digests a holder of the state can recompute (docs/mrtr.md, "Readable, and linkable")', async () => {
    const { seal } = clocked([SECRET]);
    const subject = requestBinding('mcp', 'tools/call', { name: 'greet', arguments: { a: 1 } }, 'alice@example.com');
    const payload = JSON.parse(Buffer.from((await seal.seal({ ...content, binding: subject })).split('.')[1]!, 'base64url').toString('utf8'));
    expect(payload.p).toBe(canonicalDigest(['principal', 'alice@example.com']));
    expect(payload.c).toBe(canonicalDigest(['mcp', 'tools/call', { name: 'greet', arguments: { a: 1 } }]));
  });

  it('checks the tag before the expiry (an expired forgery is "tampered", not "expired")', async () => {
    const { seal, clock } = clocked([SECRET]);
    const [v, p] = (await seal.seal(content)).split('.');
    clock.now += 10_000;
    expect(await seal.open(`${v}.${p}.${'A'.repeat(43)}`, bound())).toEqual({ ok: false, problem: 'tampered' });
  });

  it('computes the binding only once the tag, shape and expiry passed', async () => {
    const { seal } = clocked([SECRET]);
    let computed = 0;
    const counting = () => (computed++, binding);
    await seal.open(`v1.abc.${'A'.repeat(43)}`, counting);
    expect(computed).toBe(0);
    await seal.open(await seal.seal(content), counting);
    expect(computed).toBe(1);
  });

  it('refuses a state bound to another call or another principal', async () => {
    const { seal } = clocked([SECRET]);
    const sealed = await seal.seal(content);
    expect(await seal.open(sealed, bound(requestBinding('mcp', 'tools/call', { name: 'greet', arguments: { a: 2 } }, undefined)))).toEqual({
      ok: false,
      problem: 'other_call',
    });
    expect(await seal.open(sealed, bound(requestBinding('admin/mcp', 'tools/call', { name: 'greet', arguments: { a: 1 } }, undefined)))).toEqual({
      ok: false,
      problem: 'other_call',
    });
    expect(await seal.open(sealed, bound(requestBinding('mcp', 'tools/call', { name: 'greet', arguments: { a: 1 } }, 'alice')))).toEqual({
      ok: false,
      problem: 'other_principal',
    });
  });

  it('opens with any configured secret and seals with the first (rotation)', async () => {
    const OLD = 'old-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
    const oldSeal = new RequestStateSeal(new HmacRequestStateCodec([OLD]), 1000);
    const rotated = new RequestStateSeal(new HmacRequestStateCodec([SECRET, OLD]), 1000);
    expect((await rotated.open(await oldSeal.seal(content), bound())).ok).toBe(true);
    expect(await oldSeal.open(await rotated.seal(content), bound())).toEqual({ ok: false, problem: 'tampered' });
    expect((await new RequestStateSeal(new HmacRequestStateCodec([SECRET]), 1000).open(await rotated.seal(content), bound())).ok).toBe(true);
  });

  it('shares one random secret per process when none is configured', async () => {
    const a = new RequestStateSeal(new HmacRequestStateCodec(), 1000);
    const b = new RequestStateSeal(new HmacRequestStateCodec(), 1000);
    expect((await b.open(await a.seal(content), bound())).ok).toBe(true);
    expect(await new RequestStateSeal(new HmacRequestStateCodec([SECRET]), 1000).open(await a.seal(content), bound())).toEqual({ ok: false, problem: 'tampered' });
  });

  it.each([
    ['a wrong segment count', 'v1.abc'],
    ['another version', 'v9.abc.def'],
    ['a payload outside base64url', 'v1.ab+c.def'],
    ['a state over the size limit', `v1.${'a'.repeat(REQUEST_STATE_MAX_CHARS)}.b`],
  ])('refuses %s as malformed', async (_case, sealed) => {
    expect(await clocked([SECRET]).seal.open(sealed, bound())).toEqual({ ok: false, problem: 'malformed' });
  });

  it('refuses a correctly tagged payload that is not a sealed state as malformed', async () => {
    const { seal } = clocked([SECRET]);
    const body = `v1.${Buffer.from(JSON.stringify({ hello: 'world' })).toString('base64url')}`;
    const tag = createHmac('sha256', SECRET).update(body).digest('base64url');
    expect(await seal.open(`${body}.${tag}`, bound())).toEqual({ ok: false, problem: 'malformed' });
    const otherTag = (await seal.seal(content)).split('.')[2]!;
    expect(await seal.open(`${body}.${otherTag}`, bound())).toEqual({ ok: false, problem: 'tampered' });
  });

  /** A correctly tagged state over any payload. */
  const tagged = (payload: unknown) => {
    const body = `v1.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    return `${body}.${createHmac('sha256', SECRET).update(body).digest('base64url')}`;
  };

  it.each([
    ['no expiry', { c: binding.call, r: 1, a: {} }],
    ['a non-numeric expiry', { exp: 'never', c: binding.call, r: 1, a: {} }],
    ['a fractional round', { exp: 2_000_000, c: binding.call, r: 1.5, a: {} }],
    ['answers that are not an object', { exp: 2_000_000, c: binding.call, r: 1, a: ['x'] }],
    ['a call digest that is not a string', { exp: 2_000_000, c: 5, r: 1, a: {} }],
  ])('refuses a correctly tagged state with %s as malformed', async (_case, payload) => {
    expect(await clocked([SECRET]).seal.open(tagged(payload), bound())).toEqual({ ok: false, problem: 'malformed' });
  });

  it.each(['alice', ''])('refuses a state bound to the principal %j when the call has none', async (subject) => {
    const { seal } = clocked([SECRET]);
    const sealed = await seal.seal({ ...content, binding: requestBinding('mcp', 'tools/call', { name: 'greet', arguments: { a: 1 } }, subject) });
    expect(await seal.open(sealed, bound())).toEqual({ ok: false, problem: 'other_principal' });
  });

  it('refuses a state with a segment after the tag as malformed', async () => {
    const { seal } = clocked([SECRET]);
    expect(await seal.open(`${await seal.seal(content)}.x`, bound())).toEqual({ ok: false, problem: 'malformed' });
  });

  it.each([
    ['too short', (tag: string) => tag.slice(0, 40)],
    ['one character short, ending in a canonical last character', (tag: string) => `${tag.slice(0, 41)}A`],
    ['in a non-canonical spelling', (tag: string) => tag.slice(0, 42) + String.fromCharCode(tag.charCodeAt(42) + 1)],
  ])('refuses a tag %s as tampered', async (_case, spoil) => {
    const { seal } = clocked([SECRET]);
    const [v, p, tag] = (await seal.seal(content)).split('.');
    expect(await seal.open(`${v}.${p}.${spoil(tag!)}`, bound())).toEqual({ ok: false, problem: 'tampered' });
  });

  it('refuses a payload spelled with padding as malformed: base64url without it is its one spelling', async () => {
    const { seal } = clocked([SECRET]);
    const [v, p, tag] = (await seal.seal(content)).split('.');
    expect(await seal.open(`${v}.${p}=.${tag}`, bound())).toEqual({ ok: false, problem: 'malformed' });
  });

  it('takes an empty secret list as none given', async () => {
    const seal = new RequestStateSeal(new HmacRequestStateCodec([]), 1000);
    expect((await seal.open(await seal.seal(content), bound())).ok).toBe(true);
  });

  it('hands a state exactly at the size limit to the codec; one character more is malformed', async () => {
    const { seal } = clocked([SECRET]);
    expect(await seal.open(`v1.${'a'.repeat(REQUEST_STATE_MAX_CHARS - 47)}.${'A'.repeat(43)}`, bound())).toEqual({ ok: false, problem: 'tampered' });
    expect(await seal.open(`v1.${'a'.repeat(REQUEST_STATE_MAX_CHARS - 46)}.${'A'.repeat(43)}`, bound())).toEqual({ ok: false, problem: 'malformed' });
  });

  it('refuses to seal more than it would open', async () => {
    const { seal } = clocked([SECRET]);
    await expect(seal.seal({ ...content, toolState: 'x'.repeat(REQUEST_STATE_MAX_CHARS) })).rejects.toThrow(RangeError);
  });
});

describe('RequestStateSeal over a custom codec', () => {
  /** A codec that keeps payloads server-side and hands out handles, as a KMS- or store-backed one might. */
  class HandleCodec implements RequestStateCodec {
    private readonly kept = new Map<string, string>();
    async seal(payload: string): Promise<string> {
      const handle = `h${this.kept.size}`;
      this.kept.set(handle, payload);
      return handle;
    }
    async open(sealed: string): Promise<RequestStateOpened> {
      const payload = this.kept.get(sealed);
      return payload === undefined ? { ok: false, problem: /^h\d+$/.test(sealed) ? 'tampered' : 'malformed' } : { ok: true, payload };
    }
  }

  it('seals and opens through the codec, the library still checking expiry and binding', async () => {
    const clock = { now: 0 };
    const seal = new RequestStateSeal(new HandleCodec(), 1000, () => clock.now);
    const sealed = await seal.seal(content);
    expect(sealed).toBe('h0');
    expect(await seal.open(sealed, bound())).toEqual({ ok: true, content });
    expect(await seal.open('h9', bound())).toEqual({ ok: false, problem: 'tampered' });
    expect(await seal.open('zz', bound())).toEqual({ ok: false, problem: 'malformed' });
    expect(await seal.open(sealed, bound(requestBinding('mcp', 'tools/call', { name: 'other' }, undefined)))).toEqual({ ok: false, problem: 'other_call' });
    clock.now = 1001;
    expect(await seal.open(sealed, bound())).toEqual({ ok: false, problem: 'expired' });
  });
});

describe('RequestStateSeal at the size limit', () => {
  /** A codec whose sealed form is a fixed number of characters. */
  const sized = (chars: number): RequestStateCodec => ({ seal: () => 'x'.repeat(chars), open: () => ({ ok: false, problem: 'malformed' }) });

  it('seals a state exactly at the limit and refuses one character more', async () => {
    expect(await new RequestStateSeal(sized(REQUEST_STATE_MAX_CHARS), 1000).seal(content)).toHaveLength(REQUEST_STATE_MAX_CHARS);
    await expect(new RequestStateSeal(sized(REQUEST_STATE_MAX_CHARS + 1), 1000).seal(content)).rejects.toThrow(RangeError);
  });
});

describe('canonicalDigest', () => {
  it('ignores object key order and undefined members, but not array order', async () => {
    expect(canonicalDigest({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(canonicalDigest({ b: { d: 'x', c: [1, 2], e: undefined }, a: 1 }));
    expect(canonicalDigest([1, 2])).not.toBe(canonicalDigest([2, 1]));
    expect(canonicalDigest({ a: '1' })).not.toBe(canonicalDigest({ a: 1 }));
    expect(canonicalDigest({ 'a"b': 1 })).not.toBe(canonicalDigest({ a: 'b": 1' }));
  });

  it('digests any nesting depth without overflowing the stack', async () => {
    const depth = 100_000;
    const deep = JSON.parse('['.repeat(depth) + ']'.repeat(depth));
    expect(canonicalDigest(deep)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

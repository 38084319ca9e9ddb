import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import type { RequestStateCodec, RequestStateOpened } from '../contracts/request-state-codec.js';

const VERSION = 'v1';
/**
 * An HMAC-SHA256 tag in canonical base64url: 32 bytes, 43 characters, the last carrying 4 bits and two zero bits
 * (any other last character would decode to the same bytes: one tag, one spelling).
 */
const TAG = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;
const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The secret used when none is configured: one per process, so only this process opens what it sealed. */
let processSecret: Buffer | undefined;

/**
 * The default requestState codec: `v1.<base64url(payload)>.<base64url(HMAC-SHA256(secret, "v1.<payload>"))>`.
 * Sealed with the first secret, opened with any (rotation: put the new secret first, keep the old one until the
 * last state it sealed has expired); tags compared in constant time. Signed, not encrypted: the client can read
 * the payload. Without secrets, a random per-process secret.
 * @publicApi
 */
export class HmacRequestStateCodec implements RequestStateCodec {
  /** An HMAC tag depends only on the key and the payload. */
  readonly deterministic = true;
  private readonly keys: readonly Buffer[];

  /** @param secrets HMAC secrets, newest first; undefined or empty for the random per-process secret */
  constructor(secrets?: readonly string[]) {
    this.keys = secrets?.length ? secrets.map((s) => Buffer.from(s, 'utf8')) : [(processSecret ??= randomBytes(32))];
  }

  seal(payload: string): string {
    const body = `${VERSION}.${Buffer.from(payload, 'utf8').toString('base64url')}`;
    return `${body}.${this.tag(this.keys[0]!, body).toString('base64url')}`;
  }

  open(sealed: string): RequestStateOpened {
    const parts = sealed.split('.', 4);
    if (parts.length !== 3 || parts[0] !== VERSION || !SEGMENT.test(parts[1]!)) return { ok: false, problem: 'malformed' };
    if (!TAG.test(parts[2]!)) return { ok: false, problem: 'tampered' };
    const body = `${parts[0]}.${parts[1]}`;
    const given = Buffer.from(parts[2]!, 'base64url');
    if (!this.keys.some((key) => timingSafeEqual(this.tag(key, body), given))) return { ok: false, problem: 'tampered' };
    return { ok: true, payload: Buffer.from(parts[1]!, 'base64url').toString('utf8') };
  }

  private tag(key: Buffer, body: string): Buffer {
    return createHmac('sha256', key).update(body, 'utf8').digest();
  }
}

import { createHash } from 'node:crypto';

import { writeCanonicalJson } from '../util/canonical-json.js';

/** SHA-256 of a JSON value in canonical form, base64url, cut to 128 bits (a binding digest, not a secret). */
export function canonicalDigest(value: unknown): string {
  const hash = createHash('sha256');
  writeCanonicalJson(value, (piece) => hash.update(piece));
  return hash.digest('base64url').slice(0, 22);
}

/**
 * What a sealed `requestState` is tied to, so it cannot be replayed onto another call or by another caller: `call`
 * digests mount, method and identifying params; `principal` the auth subject, if any. Digests, never values: the
 * client can read the state.
 */
export interface RequestBinding {
  readonly call: string;
  readonly principal?: string;
}

/** Builds the binding of one call. */
export function requestBinding(mount: string, method: string, identifying: unknown, subject: string | undefined): RequestBinding {
  const call = canonicalDigest([mount, method, identifying]);
  return subject === undefined ? { call } : { call, principal: canonicalDigest(['principal', subject]) };
}

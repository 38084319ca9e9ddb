import { createHash, type Hash } from 'node:crypto';

/** Tokens on the canonical-hash stack besides values: punctuation, and an object key to write. */
const CLOSE_ARRAY = Symbol('close-array');
const CLOSE_OBJECT = Symbol('close-object');
const COMMA = Symbol('comma');

/** An object key on the canonical-hash stack. */
class Key {
  constructor(readonly name: string) {}
}

/** Feeds a JSON value into a hash in canonical form (keys sorted, undefined dropped), iteratively: no stack overflow. */
function hashCanonical(hash: Hash, root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const item = stack.pop();
    if (item === CLOSE_ARRAY) hash.update(']');
    else if (item === CLOSE_OBJECT) hash.update('}');
    else if (item === COMMA) hash.update(',');
    else if (item instanceof Key) hash.update(`${JSON.stringify(item.name)}:`);
    else if (Array.isArray(item)) {
      hash.update('[');
      stack.push(CLOSE_ARRAY);
      for (let i = item.length - 1; i >= 0; i--) {
        stack.push(item[i] === undefined ? null : item[i]);
        if (i > 0) stack.push(COMMA);
      }
    } else if (typeof item === 'object' && item !== null) {
      hash.update('{');
      stack.push(CLOSE_OBJECT);
      const entries = Object.entries(item).filter(([, v]) => v !== undefined);
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push(entries[i]![1], new Key(entries[i]![0]));
        if (i > 0) stack.push(COMMA);
      }
    } else if (typeof item === 'number' && !Number.isFinite(item))
      hash.update(String(item)); // 1e400 parses to Infinity: not null
    else hash.update(JSON.stringify(item) ?? 'null');
  }
}

/** SHA-256 of a JSON value in canonical form, base64url, cut to 128 bits (a binding digest, not a secret). */
export function canonicalDigest(value: unknown): string {
  const hash = createHash('sha256');
  hashCanonical(hash, value);
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

import { ownCopy, setOwnKey } from '../util/own-key.js';

/**
 * Applies an action's defaults after the gates pass: only to properties the caller omitted (a sent `null` stays),
 * on a copy, with a fresh clone of each default. Define semantics keep a caller's `__proto__` key an ordinary own
 * key, off the prototype.
 * Proven by: test/tools/defaults.spec.ts
 */
export function applyDefaults(data: Readonly<Record<string, unknown>>, defaults: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged = ownCopy(data) as Record<string, unknown>;
  for (const key of Object.keys(defaults)) {
    if (Object.hasOwn(data, key)) continue;
    setOwnKey(merged, key, structuredClone(defaults[key]));
  }
  return merged;
}

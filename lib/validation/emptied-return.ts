import { types } from 'node:util';

/**
 * The emptied-return check: a handler's return that JSON would send as `{}`, losing it all without a word. The
 * list is closed and short, and each member is a likely mistake with a known fix; a value with its own `toJSON`
 * is sent as that gives it, so it is none of them.
 * Proven by: test/validation/emptied-return.spec.ts, test/e2e/tool-results.e2e-spec.ts, test/e2e/resources.e2e-spec.ts,
 * test/e2e/prompts.e2e-spec.ts
 */

const OBSERVABLE = 'an Observable, which is never subscribed to: return a Promise instead (lastValueFrom(observable) from rxjs, say)';
const MAP = 'a Map, which JSON cannot carry (it would be sent as {}): convert it first (Object.fromEntries(map), say)';
const SET = 'a Set, which JSON cannot carry (it would be sent as {}): convert it first (Array.from(set), say)';

/** An rxjs Observable, from any copy of rxjs: rxjs's own `isObservable` test (a `lift` and a `subscribe` method). */
function isObservable(value: object): boolean {
  const { lift, subscribe } = value as { lift?: unknown; subscribe?: unknown };
  return typeof subscribe === 'function' && typeof lift === 'function';
}

/**
 * Names a returned value JSON would empty (an rxjs Observable, a Map, a Set) and what to return instead, as a
 * phrase to follow "returned "; undefined for anything else. Reads the value itself only, never what it holds, and
 * never a proxy's traps. Total.
 */
export function emptiedReturn(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || types.isProxy(value) || Array.isArray(value)) return undefined;
  if (Object.getPrototypeOf(value) === Object.prototype) return undefined; // the common return: data as a plain object
  try {
    const emptied = types.isMap(value) ? MAP : types.isSet(value) ? SET : isObservable(value) ? OBSERVABLE : undefined;
    return emptied && typeof (value as { toJSON?: unknown }).toJSON !== 'function' ? emptied : undefined;
  } catch {
    // A throwing getter: not one of these; JSON.stringify meets it where the value is written.
    return undefined;
  }
}

import { cut, scrub } from '../util/bounded.js';
import type { SchemaProblem } from '../validation/schema-problems.js';

/** The longest key a data path spells out; a longer one is cut there and marked `…`. */
const KEY_BOUND = 64;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Spells a location inside a call's data as a data path (see docs/tools.md, "Data paths"). A non-identifier key
 * is bracket-quoted as its JSON string, so the quoted text reads back as the key; every key is bounded.
 * @publicApi
 */
export function dataPath(segments: readonly (string | number)[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else {
      const key = cut(segment, KEY_BOUND);
      if (IDENTIFIER.test(key)) path += path === '' ? key : `.${key}`;
      // JSON escapes the C0 controls once; scrub then escapes what JSON leaves raw (DEL, C1, U+2028/9).
      else path += `[${scrub(JSON.stringify(key))}]`;
    }
  }
  return path;
}

/**
 * A location's segments as `value` holds them: a JSON pointer's digit segment (`/0`) is a list index only where the
 * value there is a list; an object's key of digits stays a key, so the path quotes it (`["0"]`) as everywhere else.
 */
export function segmentsIn(value: unknown, segments: readonly (string | number)[]): (string | number)[] {
  let at = value;
  return segments.map((segment) => {
    const typed = typeof segment === 'number' && typeof at === 'object' && at !== null && !Array.isArray(at) ? String(segment) : segment;
    at = typeof at === 'object' && at !== null && Object.hasOwn(at, typed) ? (at as Record<string, unknown>)[typed] : undefined;
    return typed;
  });
}

/**
 * The sort order of data paths, segment by segment: indexes numerically (`items[2]` before `items[10]`), keys by
 * UTF-16 code unit, an index before a key, a path before its extensions.
 */
export function compareSegments(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * The first problems a failed protocol-schema check of `value` found, located by data path as `value` holds them
 * (see {@link segmentsIn}): `messages[0].role: must be …`.
 */
export function shapeProblems(problems: readonly SchemaProblem[], value: unknown): string {
  return problems
    .slice(0, 3)
    .map((p) => `${dataPath(segmentsIn(value, p.path)) || '(root)'}: ${p.problem}`)
    .join('; ');
}

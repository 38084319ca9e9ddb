// JSON Pointer (RFC 6901) helpers: a segment escaped and unescaped, a pointer's segments, and the value a path of
// segments reaches.

/** A segment as a pointer spells it: `~` as `~0`, `/` as `~1`. */
export const escapedSegment = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** A pointer's segment as it names a key: `~1` is `/`, `~0` is `~`. */
export const unescapedSegment = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** A JSON pointer's segments, unescaped (`~1` is `/`, `~0` is `~`), array indexes as numbers. */
export function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map(unescapedSegment)
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

/** The value at a path of segments (own keys and list indexes only), or undefined. */
export function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  for (const segment of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, String(segment))) return undefined;
    value = (value as Record<string, unknown>)[String(segment)];
  }
  return value;
}

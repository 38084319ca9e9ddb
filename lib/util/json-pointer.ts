// JSON Pointer (RFC 6901) helpers: a pointer's segments, and the value a path of segments reaches.

/** A JSON pointer's segments, unescaped (`~1` is `/`, `~0` is `~`), array indexes as numbers. */
export function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
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

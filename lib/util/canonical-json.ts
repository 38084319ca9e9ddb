/** Tokens on the canonical-writing stack besides values: punctuation, and an object key to write. */
const CLOSE_ARRAY = Symbol('close-array');
const CLOSE_OBJECT = Symbol('close-object');
const COMMA = Symbol('comma');

/** An object key on the canonical-writing stack. */
class Key {
  constructor(readonly name: string) {}
}

/**
 * Writes a JSON value in canonical form, piece by piece: object keys sorted, undefined members dropped (an undefined
 * array item is `null`), so two equal JSON values, and only they, write the same text. Iterative: a deep value
 * cannot overflow the stack.
 */
export function writeCanonicalJson(root: unknown, write: (piece: string) => void): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const item = stack.pop();
    if (item === CLOSE_ARRAY) write(']');
    else if (item === CLOSE_OBJECT) write('}');
    else if (item === COMMA) write(',');
    else if (item instanceof Key) write(`${JSON.stringify(item.name)}:`);
    else if (Array.isArray(item)) {
      write('[');
      stack.push(CLOSE_ARRAY);
      for (let i = item.length - 1; i >= 0; i--) {
        stack.push(item[i] === undefined ? null : item[i]);
        if (i > 0) stack.push(COMMA);
      }
    } else if (typeof item === 'object' && item !== null) {
      write('{');
      stack.push(CLOSE_OBJECT);
      // The default sort orders strings by UTF-16 code units, as `<` does, without a call per comparison.
      const keys = Object.keys(item)
        .filter((key) => (item as Record<string, unknown>)[key] !== undefined)
        .sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((item as Record<string, unknown>)[keys[i]!], new Key(keys[i]!));
        if (i > 0) stack.push(COMMA);
      }
    } else if (typeof item === 'number' && !Number.isFinite(item))
      write(String(item)); // 1e400 parses to Infinity: not null
    else write(JSON.stringify(item) ?? 'null');
  }
}

/** A JSON value's canonical text ({@link writeCanonicalJson}). */
export function canonicalJson(value: unknown): string {
  let text = '';
  writeCanonicalJson(value, (piece) => (text += piece));
  return text;
}

import { escapedSegment } from '../util/json-pointer.js';

/**
 * The JSON-value check, at module init: a declared schema, default or example is accepted only if
 * `JSON.parse(JSON.stringify(v))` gives it back unchanged; anything else (a RegExp, a Map, a symbol key, a cycle)
 * would be dropped or mangled silently on the way to the wire.
 */

const describe = (value: unknown): string => {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'bigint') return 'a BigInt';
  if (typeof value === 'number') return String(value);
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name ? `a ${name}` : 'an object with a foreign prototype';
};

/** Spells a location inside a declared value as a JSON-pointer-like schema path, `#` being the value itself. */
export function schemaPath(segments: readonly (string | number)[]): string {
  return segments.length === 0 ? '#' : `#/${segments.map((s) => escapedSegment(String(s))).join('/')}`;
}

/**
 * Returns undefined when `value` is a JSON value, or a sentence naming the first place where it is not
 * (`at #/properties/name/pattern: a RegExp is not a JSON value`).
 */
export function jsonValueOffence(value: unknown, at: readonly (string | number)[] = []): string | undefined {
  const ancestors = new Set<object>();
  // One path, extended and cut back as the walk goes: spelled out only for an offence.
  const path: (string | number)[] = [...at];
  const visit = (node: unknown): string | undefined => {
    if (node === null || typeof node === 'string' || typeof node === 'boolean') return undefined;
    if (typeof node === 'number') return Number.isFinite(node) ? undefined : `at ${schemaPath(path)}: ${describe(node)} is not a JSON value`;
    if (typeof node !== 'object') return `at ${schemaPath(path)}: ${describe(node)} is not a JSON value`;
    if (ancestors.has(node)) return `at ${schemaPath(path)}: the value contains itself (a cycle is not a JSON value)`;
    const proto = Object.getPrototypeOf(node);
    const isArray = Array.isArray(node);
    if (!isArray && proto !== Object.prototype && proto !== null) return `at ${schemaPath(path)}: ${describe(node)} is not a JSON value`;
    const symbols = Object.getOwnPropertySymbols(node);
    if (symbols.length) return `at ${schemaPath(path)}: the key ${String(symbols[0])} is not a string (JSON object keys are strings)`;
    ancestors.add(node);
    if (isArray) {
      for (let i = 0; i < (node as unknown[]).length; i++) {
        path.push(i);
        const offence = visit((node as unknown[])[i]);
        path.pop();
        if (offence) return offence;
      }
    } else {
      // Indexed loops, as in every module-init schema walk (CONTRIBUTING.md, "Performance").
      const keys = Object.keys(node);
      for (let i = 0; i < keys.length; i++) {
        path.push(keys[i]!);
        const offence = visit((node as Record<string, unknown>)[keys[i]!]);
        path.pop();
        if (offence) return offence;
      }
    }
    ancestors.delete(node);
    return undefined;
  };
  return visit(value);
}

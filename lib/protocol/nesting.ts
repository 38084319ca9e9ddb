/**
 * How deep a message may nest: objects and arrays inside one another, the message itself being level 1.
 * Past it the message is refused before anything recursive reads it: ajv validates the protocol's recursive
 * definitions (`JSONValue`, `JSONObject`, under `clientCapabilities`) by recursion, and `JSON.stringify` is
 * recursive too, so a few kilobytes of `[[[[…]]]]` would otherwise overflow the stack (a 500) instead of being
 * the caller's error. Generous for any real message.
 */
export const MAX_NESTING_DEPTH = 128;

/** One container met on the way down: its parent link spells the location only when it is needed. */
interface Visit {
  readonly value: object;
  readonly depth: number;
  readonly key: string | number | undefined;
  readonly parent: Visit | undefined;
}

/**
 * The location (segments from the root) of the first object or array nested deeper than `max` levels, or
 * undefined when there is none. Iterative: no depth can overflow the stack.
 */
export function tooDeeplyNested(root: unknown, max: number = MAX_NESTING_DEPTH): (string | number)[] | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
  const stack: Visit[] = [{ value: root, depth: 1, key: undefined, parent: undefined }];
  while (stack.length) {
    const visit = stack.pop()!;
    if (visit.depth > max) {
      const path: (string | number)[] = [];
      for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.push(at.key!);
      return path.reverse();
    }
    const entries: [string | number, unknown][] = Array.isArray(visit.value) ? visit.value.map((v, i) => [i, v]) : Object.entries(visit.value);
    for (const [key, value] of entries)
      if (typeof value === 'object' && value !== null) stack.push({ value, depth: visit.depth + 1, key, parent: visit });
  }
  return undefined;
}

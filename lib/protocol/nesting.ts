/**
 * How deep a message may nest (the message itself is level 1). Checked before ajv or `JSON.stringify` recurse into
 * it: a few kilobytes of `[[[[…]]]]` would otherwise overflow the stack (a 500) instead of being the caller's error.
 */
export const MAX_NESTING_DEPTH = 128;

/** One container met on the way down: its parent link spells the location only when it is needed. */
interface Visit {
  readonly value: object;
  readonly depth: number;
  readonly key: string | number | undefined;
  readonly parent: Visit | undefined;
}

/** The path to the first container nested deeper than `max`, or undefined; iterative, so it cannot overflow. */
export function tooDeeplyNested(root: unknown, max: number = MAX_NESTING_DEPTH): (string | number)[] | undefined {
  return valuesWithin(root, max) === undefined ? pathToDeep(root as object, max) : undefined;
}

/**
 * How many JSON values `root` holds, itself included, or undefined when a container lies deeper than `max`: the walk
 * every message pays (allocating only its two stacks), so its count is had for nothing (`McpRequestRecord.values`).
 */
export function valuesWithin(root: unknown, max: number = MAX_NESTING_DEPTH): number | undefined {
  if (typeof root !== 'object' || root === null) return 1;
  let values = 1;
  const containers: object[] = [root];
  const depths: number[] = [1];
  while (containers.length) {
    const container = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return undefined;
    if (Array.isArray(container)) {
      values += container.length;
      for (let i = 0; i < container.length; i++) {
        const child: unknown = container[i];
        if (typeof child !== 'object' || child === null) continue;
        containers.push(child);
        depths.push(depth + 1);
      }
    } else {
      for (const key in container) {
        values++;
        const child = (container as Record<string, unknown>)[key];
        if (typeof child !== 'object' || child === null) continue;
        containers.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return values;
}

/** The path to the first container deeper than `max`: the slower walk, run only for a message already refused. */
function pathToDeep(root: object, max: number): (string | number)[] | undefined {
  const stack: Visit[] = [{ value: root, depth: 1, key: undefined, parent: undefined }];
  while (stack.length) {
    const visit = stack.pop()!;
    if (visit.depth > max) {
      const path: (string | number)[] = [];
      for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.push(at.key!);
      return path.reverse();
    }
    const entries: [string | number, unknown][] = Array.isArray(visit.value) ? visit.value.map((v, i) => [i, v]) : Object.entries(visit.value);
    for (const [key, value] of entries) if (typeof value === 'object' && value !== null) stack.push({ value, depth: visit.depth + 1, key, parent: visit });
  }
  return undefined;
}

/** How many levels of objects and arrays `root` nests (a container holding only scalars is 1; a scalar 0); iterative. */
export function nestingDepth(root: unknown): number {
  let deepest = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 1 }];
  while (stack.length) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > deepest) deepest = depth;
    for (const child of Array.isArray(value) ? value : Object.values(value)) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return deepest;
}

import { firstSubschemaWhere } from './schema-applicators.js';

/** A `$dynamicRef` ajv would resolve to another schema than its target, and the schema path of the schema holding it. */
export interface StrayDynamicRef {
  readonly ref: string;
  readonly at: string;
}

/**
 * The first `$dynamicRef` of a schema (depth first, in key order) whose fragment names no `$dynamicAnchor` of a schema
 * around it: a JSON pointer, an `$anchor`, a dynamic anchor declared elsewhere, or beside it (which would apply its own
 * schema again without end). JSON Schema resolves such a reference as a `$ref`; ajv resolves a `$dynamicRef` only
 * through the dynamic anchors of the schemas it has entered, and sends any other to the function it is validating in
 * (the root, or a `$ref`'s target), so the value is checked against the wrong schema, or without end. A reference that
 * is no fragment (`#…`) is left to ajv, which refuses it. Not seen: a `$ref` into a schema below a dynamic anchor,
 * which enters it without the anchor.
 */
export function strayDynamicRef(schema: unknown): StrayDynamicRef | undefined {
  const found = firstSubschemaWhere(schema, (node, around) => {
    const ref = node.$dynamicRef;
    if (typeof ref !== 'string' || !ref.startsWith('#')) return false;
    const anchor = ref.slice(1);
    return !around.some((outer) => outer.$dynamicAnchor === anchor);
  });
  return found && { ref: found.node.$dynamicRef as string, at: found.at };
}

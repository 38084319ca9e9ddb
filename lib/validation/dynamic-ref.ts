import { isPlainObject } from '../util/is-plain-object.js';
import { schemaPath } from './json-value.js';
import { ALSO_APPLIED, SCHEMA_APPLICATORS, someSubschema } from './schema-applicators.js';

/** A `$dynamicRef` ajv would resolve to another schema than its target, and the schema path of the schema holding it. */
export interface StrayDynamicRef {
  readonly ref: string;
  readonly at: string;
}

/**
 * The first `$dynamicRef` of a schema (depth first, in key order) whose fragment names no `$dynamicAnchor` of a schema
 * around it, itself included: a JSON pointer, an `$anchor`, a dynamic anchor declared elsewhere. JSON Schema resolves
 * such a reference as a `$ref`; ajv resolves a `$dynamicRef` only through the dynamic anchors of the schemas it has
 * entered, and sends any other to the function it is validating in (the root, or a `$ref`'s target), so the value is
 * checked against the wrong schema, or without end. A reference that is no fragment (`#…`) is left to ajv, which
 * refuses it. Not seen: a `$ref` into a schema below a dynamic anchor, which enters it without the anchor.
 */
export function strayDynamicRef(schema: unknown): StrayDynamicRef | undefined {
  const path: (string | number)[] = [];
  const anchors: string[] = [];
  const visit = (node: unknown, segment?: string | number): StrayDynamicRef | undefined => {
    if (!isPlainObject(node)) return undefined;
    if (segment !== undefined) path.push(segment);
    const anchor = node.$dynamicAnchor;
    if (typeof anchor === 'string') anchors.push(anchor);
    const ref = node.$dynamicRef;
    let found = typeof ref === 'string' && ref.startsWith('#') && !anchors.includes(ref.slice(1)) ? { ref, at: schemaPath(path) } : undefined;
    const keywords = found ? [] : Object.keys(node);
    for (let i = 0; found === undefined && i < keywords.length; i++) {
      const kind = SCHEMA_APPLICATORS.get(keywords[i]!) ?? ALSO_APPLIED.get(keywords[i]!);
      if (kind === undefined) continue;
      path.push(keywords[i]!);
      found = someSubschema(kind, node[keywords[i]!], visit);
      path.pop();
    }
    if (typeof anchor === 'string') anchors.pop();
    if (segment !== undefined) path.pop();
    return found;
  };
  return visit(schema);
}

import { isPlainObject } from '../util/is-plain-object.js';
import { unescapedSegment, valueAt } from '../util/json-pointer.js';

/**
 * A schema document: what its local `$ref`s (`#`, then a JSON pointer: `#/$defs/Name`, `#/definitions/Name`,
 * `#/properties/shape`) resolve in. The protocol's document, or a tool's schema.
 */
export type SchemaDocument = object;

/** The schema object a local `$ref` names in `document` (`#` and a JSON pointer, percent-encoded as in a URI). */
export function resolveLocalRef(document: SchemaDocument, ref: string): Record<string, unknown> | undefined {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let keys: string[];
  try {
    // Each segment percent-decoded first: an escaped `/` (`%2F`) stays within its segment.
    keys =
      ref === '#'
        ? []
        : ref
            .slice(2)
            .split('/')
            .map((raw) => unescapedSegment(decodeURIComponent(raw)));
  } catch {
    return undefined;
  }
  const node = valueAt(document, keys);
  return isPlainObject(node) ? node : undefined;
}

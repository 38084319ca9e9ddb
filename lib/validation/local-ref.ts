import { isPlainObject } from '../util/is-plain-object.js';
import { unescapedSegment, valueAt } from '../util/json-pointer.js';

/**
 * A schema document: what its local `$ref`s (`#`, then a JSON pointer: `#/$defs/Name`, `#/definitions/Name`,
 * `#/properties/shape`) resolve in. The protocol's document, or a tool's schema.
 */
export type SchemaDocument = object;

/** The schema object a local `$ref` names in `document` (`#` and a JSON pointer, percent-encoded as in a URI). */
export function resolveLocalRef(document: SchemaDocument, ref: string): Record<string, unknown> | undefined {
  const keys = localRefKeys(ref);
  const node = keys && valueAt(document, keys);
  return isPlainObject(node) ? node : undefined;
}

/**
 * The keys a local `$ref` (or an ajv schema path: `#` and a JSON pointer, percent-encoded) walks from its document's
 * root, or undefined for another reference or a malformed one.
 */
export function localRefKeys(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  try {
    // Each segment percent-decoded first: an escaped `/` (`%2F`) stays within its segment.
    return ref
      .slice(2)
      .split('/')
      .map((raw) => unescapedSegment(decodeURIComponent(raw)));
  } catch {
    return undefined;
  }
}

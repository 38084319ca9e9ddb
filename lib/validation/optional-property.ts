import { isPlainObject } from '../util/is-plain-object.js';
import { resolveLocalRef, type SchemaDocument } from './local-ref.js';

/** Where a caller's value was checked: the schema it was checked against, and the document its local `$ref`s name. */
export interface CheckedAgainst {
  readonly document: SchemaDocument;
  readonly root: Readonly<Record<string, unknown>>;
}

/** The most `$ref`s followed one after another: past it, a chain says nothing. */
const REFS_FOLLOWED = 16;

/**
 * Whether the value at `path` is a property its object's schema declares and does not require, found by walking
 * `properties`, `items` and `prefixItems` (through local `$ref`s) from the root along the path. False wherever the
 * walk cannot say: a union, a conditional, a pattern or additional property, a remote reference.
 */
export function isOptionalProperty(checked: CheckedAgainst, path: readonly (string | number)[]): boolean {
  let node: Readonly<Record<string, unknown>> | undefined = checked.root;
  for (const [index, segment] of path.entries()) {
    node = node && referenced(checked.document, node);
    if (!node) return false;
    const properties = isPlainObject(node.properties) ? node.properties : undefined;
    const name = String(segment);
    if (index === path.length - 1) return properties !== undefined && Object.hasOwn(properties, name) && !(Array.isArray(node.required) && node.required.includes(name));
    const next: unknown =
      typeof segment === 'number' && (node.items !== undefined || node.prefixItems !== undefined)
        ? ((Array.isArray(node.prefixItems) ? node.prefixItems[segment] : undefined) ?? node.items)
        : properties && Object.hasOwn(properties, name)
          ? properties[name]
          : undefined;
    node = isPlainObject(next) ? next : undefined;
  }
  return false;
}

/** The schema `node` stands for: itself, or what its local `$ref` names when it declares no properties or items beside it. */
function referenced(document: SchemaDocument, node: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> | undefined {
  let at: Readonly<Record<string, unknown>> | undefined = node;
  for (let followed = 0; at && typeof at.$ref === 'string' && at.properties === undefined && at.items === undefined; followed++) {
    if (followed === REFS_FOLLOWED) return undefined;
    at = resolveLocalRef(document, at.$ref);
  }
  return at;
}

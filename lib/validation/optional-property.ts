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
 * Keywords that apply another schema to the same value, or decide its keys otherwise than `properties` and
 * `required` do: beside any of them a property left out may still be refused (`allOf: [{required: […]}]`, a
 * conditional's `then`, `dependentRequired`, a `minProperties` the object would fall under), so the walk cannot say.
 */
const UNWALKED = [
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'minProperties',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
];

/**
 * Keywords that may apply a schema to a declared property or an item besides `properties`/`items`: on the way down,
 * the member's schema is then not the walk's alone (`additionalProperties` and the `unevaluated` ones never reach a
 * declared property).
 */
const UNWALKED_ABOVE = ['patternProperties', 'contains'];

/** An object's schema as the walk reads it: its `properties` (if any), and the names it requires. */
export interface ObjectSchema {
  readonly properties: Readonly<Record<string, unknown>> | undefined;
  readonly required: ReadonlySet<string>;
}

/** Whether `object` (an {@link objectSchemaAt} reading) declares `name` and leaves it optional. */
export const isOptionalIn = (object: ObjectSchema | undefined, name: string): boolean =>
  object?.properties !== undefined && Object.hasOwn(object.properties, name) && !object.required.has(name);

/**
 * The schema of the object at `path`, found by walking `properties`, `items` and `prefixItems` (through local
 * `$ref`s) from the root along the path; undefined wherever the walk cannot say whether a property it declares is
 * optional: a union, a conditional, `allOf`, `dependentRequired`, `minProperties`, a `$ref` beside other keywords, a
 * pattern or additional property, a remote reference. One reading serves every property of that object.
 */
export function objectSchemaAt(checked: CheckedAgainst, path: readonly (string | number)[]): ObjectSchema | undefined {
  let node: Readonly<Record<string, unknown>> | undefined = checked.root;
  for (const segment of path) {
    const at = node && referenced(checked.document, node);
    if (!at || UNWALKED_ABOVE.some((keyword) => at.node[keyword] !== undefined)) return undefined;
    const properties = isPlainObject(at.node.properties) ? at.node.properties : undefined;
    const name = String(segment);
    const next: unknown =
      typeof segment === 'number' && (at.node.items !== undefined || at.node.prefixItems !== undefined)
        ? ((Array.isArray(at.node.prefixItems) ? at.node.prefixItems[segment] : undefined) ?? at.node.items)
        : properties && Object.hasOwn(properties, name)
          ? properties[name]
          : undefined;
    node = isPlainObject(next) ? next : undefined;
  }
  const at = node && referenced(checked.document, node);
  return at && { properties: isPlainObject(at.node.properties) ? at.node.properties : undefined, required: at.required };
}

/**
 * The schema `node` stands for, with the properties it requires: itself, or what its local `$ref` names when the
 * `$ref` stands alone or beside `required` only (whose names are kept); undefined where the walk cannot say
 * ({@link UNWALKED}).
 */
function referenced(document: SchemaDocument, node: Readonly<Record<string, unknown>>): { node: Readonly<Record<string, unknown>>; required: Set<string> } | undefined {
  const required = new Set<string>();
  let at: Readonly<Record<string, unknown>> | undefined = node;
  for (let followed = 0; at; followed++) {
    if (Array.isArray(at.required)) for (const name of at.required) if (typeof name === 'string') required.add(name);
    const ref: unknown = at.$ref;
    const alone = typeof ref === 'string' && at.properties === undefined && at.items === undefined && at.prefixItems === undefined;
    if (!alone) return UNWALKED.some((keyword) => at![keyword] !== undefined) ? undefined : { node: at, required };
    if (followed === REFS_FOLLOWED || UNWALKED.some((keyword) => keyword !== '$ref' && at![keyword] !== undefined)) return undefined;
    at = resolveLocalRef(document, ref);
  }
  return undefined;
}

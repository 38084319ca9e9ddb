import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

import { metaSchema } from '../schema/json-schema-2020-12.validators.js';
import { bounded, quoted } from '../util/bounded.js';
import { FORMATS } from './add-formats.js';

/** The JSON Schema dialect consumer schemas are written in (the only one accepted). */
export const META_SCHEMA_ID = 'https://json-schema.org/draft/2020-12/schema';

/** The precompiled meta-schema check, built on first use. */
let metaSchemaCheck: ValidateFunction | undefined;

/**
 * Checks a consumer-written schema against the JSON Schema 2020-12 meta-schema, precompiled (ajv builds it in about
 * 100 ms otherwise, per instance), and refuses another dialect named by `$schema`: ajv's wording of the problems,
 * or undefined when the schema conforms.
 */
export function metaSchemaProblems(schema: object, wording: Ajv2020): string | undefined {
  const dialect = (schema as { $schema?: unknown }).$schema;
  if (dialect !== undefined && dialect !== META_SCHEMA_ID) return `declares the unsupported JSON Schema dialect ${bounded(dialect, 100)}; only 2020-12 is supported`;
  const check = (metaSchemaCheck ??= metaSchema(FORMATS).check!);
  if (check(schema)) return undefined;
  return `is not a JSON Schema this server can build: schema is invalid: ${bounded(wording.errorsText(check.errors), 300)}${requiredHint(check.errors ?? [])}`;
}

/**
 * The fix for a `required` that is not a list of names, the commonest slip (`required: true` on a property, from JSON
 * Schema draft 3): the names go in a list on the object that holds the properties. Empty for any other problem (a
 * schema under a name that is `required`, wrong in its own way, is refused by the shape walk before this check).
 */
function requiredHint(errors: readonly ErrorObject[]): string {
  const slip = errors.find((error) => error.keyword === 'type' && error.instancePath.endsWith('/required'));
  if (!slip) return '';
  const path = slip.instancePath.split('/').slice(1, -1).map(unescaped);
  const named = path.length >= 2 && path[path.length - 2] === 'properties' ? path[path.length - 1]! : undefined;
  return `; "required" is a list of property names given on the object that holds them${named === undefined ? '' : `: to require ${quoted(named, 60)}, list it in its parent object's "required": [${quoted(named, 60)}]`}`;
}

/** A JSON pointer token as written (`~1` is `/`, `~0` is `~`). */
const unescaped = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

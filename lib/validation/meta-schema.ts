import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

import { metaSchema } from '../schema/json-schema-2020-12.validators.js';
import { bounded, quoted } from '../util/bounded.js';
import { pointerSegments, valueAt } from '../util/json-pointer.js';
import { FORMATS } from './add-formats.js';
import { firstSubschemaWhere } from './schema-applicators.js';

/** The JSON Schema dialect consumer schemas are written in (the only one accepted). */
export const META_SCHEMA_ID = 'https://json-schema.org/draft/2020-12/schema';

/** Whether `$schema` names {@link META_SCHEMA_ID}: as it is, or with the empty fragment earlier drafts' URIs carried. */
const namesMetaSchema = (dialect: unknown): boolean => dialect === META_SCHEMA_ID || dialect === `${META_SCHEMA_ID}#`;

/** A draft-07 dialect URI, what converters write by default (`zod-to-json-schema`, `@valibot/to-json-schema`). */
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** The way to 2020-12 from the converters that write draft-07 by default. */
const CONVERTERS_TO_2020_12 = ": from a converter, zod 4's z.toJSONSchema() writes 2020-12, and Valibot's toJsonSchema takes { target: 'draft-2020-12' }";

/** The precompiled meta-schema check, built on first use. */
let metaSchemaCheck: ValidateFunction | undefined;

/**
 * Checks a consumer-written schema against the JSON Schema 2020-12 meta-schema, precompiled (ajv builds it in about
 * 100 ms otherwise, per instance), and refuses another dialect named by `$schema`: ajv's wording of the problems,
 * or undefined when the schema conforms.
 */
export function metaSchemaProblems(schema: object, wording: Ajv2020): string | undefined {
  // Below the root too: a converter run on each property alone writes a `$schema` into each, which ajv never reads.
  const foreign = firstSubschemaWhere(schema, (node) => node.$schema !== undefined && !namesMetaSchema(node.$schema));
  if (foreign)
    return `declares the unsupported JSON Schema dialect ${bounded(foreign.node.$schema, 100)}${foreign.at === '#' ? '' : ` at ${bounded(foreign.at, 100)}`}; only 2020-12 is supported ("$schema": "${META_SCHEMA_ID}", or none)${DRAFT_07.test(String(foreign.node.$schema)) ? CONVERTERS_TO_2020_12 : ''}`;
  const check = (metaSchemaCheck ??= metaSchema(FORMATS).check!);
  if (check(schema)) return undefined;
  const errors = check.errors ?? [];
  return `is not a JSON Schema this server can build: schema is invalid: ${bounded(wording.errorsText(distinct(errors), { dataVar: '#' }), 300)}${requiredHint(schema, errors)}`;
}

/**
 * Each problem once: the meta-schema reaches a subschema through several of its vocabularies, so one misplaced
 * value fails the same way up to eight times, and the copies would fill the refusal's bound before the next place.
 */
function distinct(errors: readonly ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${error.instancePath} ${error.message ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The fix for a `required` that is not a list of names, the commonest slip (`required: true` on a property, from JSON
 * Schema draft 3): the names go in a list on the object that holds the properties. Empty for any other problem,
 * a member named `required` (`properties: {required: 5}`, `dependentRequired: {required: 'note'}`) included.
 */
function requiredHint(schema: object, errors: readonly ErrorObject[]): string {
  const slip = errors.find((error) => error.keyword === 'type' && (error.params as { type?: unknown }).type === 'array' && error.instancePath.endsWith('/required'));
  const path = slip ? pointerSegments(slip.instancePath).map(String) : [];
  if (!slip || AUTHOR_NAMED.has(path[path.length - 2]!)) return '';
  const named = path.length >= 3 && path[path.length - 3] === 'properties' ? path[path.length - 2]! : undefined;
  const hint = '; "required" is a list of property names given on the object that holds them';
  if (named === undefined) return hint;
  if (valueAt(schema, path) === false) return `${hint}: remove "required": false from ${quoted(named, 60)} (a property is optional unless listed)`;
  return `${hint}: to require ${quoted(named, 60)}, list it in its parent object's "required": [${quoted(named, 60)}]`;
}

/**
 * The keywords whose members sit under names of the schema's author (one may be named `required`): schemas, or the
 * name lists of `dependentRequired` and draft-7 `dependencies`.
 */
const AUTHOR_NAMED: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependentRequired', 'dependencies', '$defs', 'definitions']);

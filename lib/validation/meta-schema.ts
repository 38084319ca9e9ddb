import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

import { metaSchema } from '../schema/json-schema-2020-12.validators.js';
import { bounded } from '../util/bounded.js';
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
  return check(schema) ? undefined : `is not a JSON Schema this server can build: schema is invalid: ${bounded(wording.errorsText(check.errors), 300)}`;
}

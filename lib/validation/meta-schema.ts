import { Ajv2020 } from 'ajv/dist/2020.js';

import { metaSchema } from '../schema/json-schema-2020-12.validators.js';
import { bounded } from '../util/bounded.js';
import { addFormats } from './add-formats.js';
import { CALLER_VALUE_CHECK } from './linear-errors.js';
import { precompiledModule, type PrecompiledModule } from './precompiled-source.js';

const META_SCHEMA_ID = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Checks a consumer-written schema against the JSON Schema 2020-12 meta-schema, precompiled (ajv builds it in about
 * 100 ms otherwise, per instance), and refuses another dialect named by `$schema`: ajv's wording of the problems,
 * or undefined when the schema conforms.
 */
export function metaSchemaProblems(schema: object, wording: Ajv2020): string | undefined {
  const dialect = (schema as { $schema?: unknown }).$schema;
  if (dialect !== undefined && dialect !== META_SCHEMA_ID) return `declares the unsupported JSON Schema dialect ${bounded(dialect, 100)}; only 2020-12 is supported`;
  const check = metaSchema.check!;
  return check(schema) ? undefined : `is not a JSON Schema this server can build: schema is invalid: ${bounded(wording.errorsText(check.errors), 300)}`;
}

/** The precompiled meta-schema check's module (`npm run precompile:schema`), in the dialect tool schemas use. */
export function metaSchemaModule(): Promise<PrecompiledModule> {
  const ajv = new Ajv2020({ ...CALLER_VALUE_CHECK, code: { ...CALLER_VALUE_CHECK.code, source: true } });
  addFormats(ajv);
  return precompiledModule('the JSON Schema 2020-12 meta-schema bundled with ajv', { metaSchema: { ajv, refs: { check: META_SCHEMA_ID } } });
}

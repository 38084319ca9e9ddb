import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { LINEAR_ERROR_MERGE } from '../validation/linear-errors.js';
import { describeSchemaErrors, type SchemaProblem } from '../validation/schema-problems.js';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** Where the vendored 2026-07-28 schema lives (a data file shipped in the package, see schema/SOURCE.md). */
const SCHEMA_URL = new URL('../schema/mcp-2026-07-28.schema.json', import.meta.url);
const SCHEMA_ID = 'mcp-2026-07-28';

/**
 * The vendored official protocol schema, compiled once per process with ajv (draft 2020-12, formats asserted)
 * the first time a module initialises; requests only call the compiled validators.
 * Rule it owns: every message and params check against the protocol uses a definition of this one schema.
 */
export class ProtocolSchema {
  private static instance: ProtocolSchema | undefined;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv: Ajv2020;
  /** The `$defs` names the schema has. */
  readonly definitions: ReadonlySet<string>;

  private constructor() {
    const schema = JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as { $defs: Record<string, unknown> };
    this.definitions = new Set(Object.keys(schema.$defs));
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, code: LINEAR_ERROR_MERGE });
    addFormats(this.ajv);
    this.ajv.addSchema(schema, SCHEMA_ID);
  }

  /** The process-wide compiled schema (compiled on first use, at module init). */
  static shared(): ProtocolSchema {
    return (ProtocolSchema.instance ??= new ProtocolSchema());
  }

  /** Compiles (once) and returns the validator of one `$defs` entry. */
  validator(definition: string): ValidateFunction {
    let validate = this.validators.get(definition);
    if (!validate) {
      if (!this.definitions.has(definition)) throw new Error(`The protocol schema has no definition ${definition}`);
      validate = this.ajv.getSchema(`${SCHEMA_ID}#/$defs/${definition}`)!;
      this.validators.set(definition, validate);
    }
    return validate;
  }

  /** Validates a value against one definition: no problems means it conforms. */
  check(definition: string, value: unknown): SchemaProblem[] {
    const validate = this.validator(definition);
    return validate(value) ? [] : describeSchemaErrors(validate.errors);
  }
}

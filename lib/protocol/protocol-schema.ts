import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { addFormats } from '../validation/add-formats.js';
import type { ValidateFunction } from 'ajv';
import { LINEAR_ERROR_MERGE } from '../validation/linear-errors.js';
import { DETAILED_CHECK_MAX_VALUES, failedCheck } from '../validation/value-count.js';
import { describeSchemaErrors, type SchemaProblem } from '../validation/schema-problems.js';

/** Where the vendored 2026-07-28 schema lives (a data file shipped in the package, see schema/SOURCE.md). */
const SCHEMA_URL = new URL('../schema/mcp-2026-07-28.schema.json', import.meta.url);
const SCHEMA_ID = 'mcp-2026-07-28';

/** One definition, compiled twice: naming every problem, and stopping at the first. */
interface Compiled {
  readonly all: ValidateFunction;
  readonly first: ValidateFunction;
}

/**
 * The vendored official protocol schema, compiled once per process with ajv (draft 2020-12, formats asserted)
 * the first time a module initialises; requests only call the compiled validators.
 * Rule it owns: every message and params check against the protocol uses a definition of this one schema, and
 * a failed check names every problem, or only the first when the value holds more than
 * {@link DETAILED_CHECK_MAX_VALUES} values.
 * Proven by: test/e2e/pipeline.e2e-spec.ts ("… stops at the first problem …")
 */
export class ProtocolSchema {
  private static instance: ProtocolSchema | undefined;
  private readonly compiledDefinitions = new Map<string, Compiled>();
  private readonly ajv: { all: Ajv2020; first: Ajv2020 };
  /** The `$defs` names the schema has. */
  readonly definitions: ReadonlySet<string>;

  private constructor() {
    const schema = JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as { $defs: Record<string, unknown> };
    this.definitions = new Set(Object.keys(schema.$defs));
    const build = (allErrors: boolean) => {
      const ajv = new Ajv2020({ strict: false, allErrors, validateFormats: true, code: LINEAR_ERROR_MERGE });
      addFormats(ajv);
      ajv.addSchema(schema, SCHEMA_ID);
      return ajv;
    };
    this.ajv = { all: build(true), first: build(false) };
  }

  /** The process-wide compiled schema (compiled on first use, at module init). */
  static shared(): ProtocolSchema {
    return (ProtocolSchema.instance ??= new ProtocolSchema());
  }

  /** Compiles (once) one `$defs` entry and returns the validator that names every problem. */
  validator(definition: string): ValidateFunction {
    return this.compiled(definition).all;
  }

  /** Validates a value against one definition: no problems means it conforms. */
  check(definition: string, value: unknown): SchemaProblem[] {
    const { all, first } = this.compiled(definition);
    const failed = failedCheck(all, first, value);
    return failed ? describeSchemaErrors(failed.errors) : [];
  }

  private compiled(definition: string): Compiled {
    let compiled = this.compiledDefinitions.get(definition);
    if (!compiled) {
      if (!this.definitions.has(definition)) throw new Error(`The protocol schema has no definition ${definition}`);
      const ref = `${SCHEMA_ID}#/$defs/${definition}`;
      compiled = { all: this.ajv.all.getSchema(ref)!, first: this.ajv.first.getSchema(ref)! };
      this.compiledDefinitions.set(definition, compiled);
    }
    return compiled;
  }
}

import { readFile } from 'node:fs/promises';

import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

import { addFormats } from '../validation/add-formats.js';
import { LINEAR_ERROR_MERGE } from '../validation/linear-errors.js';
import { describeSchemaErrors, type SchemaProblem } from '../validation/schema-problems.js';
import { failedCheck } from '../validation/value-count.js';

/** The vendored official schema of 2026-07-28, a data file shipped in the package (see `schema/SOURCE.md`). */
const VENDORED_SCHEMA = new URL('../schema/mcp-2026-07-28.schema.json', import.meta.url);

/** A JSON Schema document whose `$defs` hold the protocol's definitions. @publicApi */
export interface ProtocolSchemaDocument {
  readonly $defs: Readonly<Record<string, unknown>>;
  readonly [keyword: string]: unknown;
}

/** One definition, compiled twice: naming every problem, and stopping at the first. */
interface Compiled {
  readonly all: ValidateFunction;
  readonly first: ValidateFunction;
}

let vendored: Promise<ProtocolSchema> | undefined;

/**
 * The protocol schema: checks values against one official schema document's `$defs`, each compiled once on first
 * use (ajv, draft 2020-12, formats asserted); providers compile theirs at module init, so requests only validate.
 * Past the detailed-check bound a check names only the first problem. Default: {@link ProtocolSchema.vendored}.
 * @publicApi
 */
export class ProtocolSchema {
  private readonly compiledDefinitions = new Map<string, Compiled>();
  private readonly ajv: { readonly all: Ajv2020; readonly first: Ajv2020 };
  /** The `$defs` names the schema has. */
  readonly definitions: ReadonlySet<string>;

  constructor(
    document: ProtocolSchemaDocument,
    private readonly id = 'mcp-protocol',
  ) {
    this.definitions = new Set(Object.keys(document.$defs));
    const build = (allErrors: boolean) => {
      const ajv = new Ajv2020({ strict: false, allErrors, validateFormats: true, code: LINEAR_ERROR_MERGE });
      addFormats(ajv);
      ajv.addSchema(document, id);
      return ajv;
    };
    this.ajv = { all: build(true), first: build(false) };
  }

  /** The vendored 2026-07-28 schema, loaded once per process however many mounts share it. */
  static vendored(): Promise<ProtocolSchema> {
    return (vendored ??= readFile(VENDORED_SCHEMA, 'utf8').then((text) => new ProtocolSchema(JSON.parse(text) as ProtocolSchemaDocument, 'mcp-2026-07-28')));
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
      const ref = `${this.id}#/$defs/${definition}`;
      compiled = { all: this.ajv.all.getSchema(ref)!, first: this.ajv.first.getSchema(ref)! };
      this.compiledDefinitions.set(definition, compiled);
    }
    return compiled;
  }
}

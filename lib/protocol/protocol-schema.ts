import { readFile } from 'node:fs/promises';

import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

import { FORMATS, addFormats } from '../validation/add-formats.js';
import { LINEAR_ERROR_MERGE } from '../validation/linear-errors.js';
import type { PrecompiledValidators } from '../validation/precompiled-source.js';
import { describeSchemaErrors, type SchemaProblem } from '../validation/schema-problems.js';
import { definitionName, unionLookup } from '../validation/union-branches.js';
import { failedCheck } from '../validation/value-count.js';
import { correctedSchema } from './schema-corrections.js';

/** The vendored official schema of 2026-07-28, a data file shipped in the package (see `schema/SOURCE.md`). */
const VENDORED_SCHEMA = new URL('../schema/mcp-2026-07-28.schema.json', import.meta.url);
/** Its `$defs`, compiled ahead of time (`npm run precompile:schema`), so starting costs no compilation. */
const VENDORED_VALIDATORS = '../schema/mcp-2026-07-28.validators.js';
/** The vendored schema's id, which its precompiled validators were generated under. */
export const VENDORED_SCHEMA_ID = 'mcp-2026-07-28';

/** A JSON Schema document whose `$defs` hold the protocol's definitions. @publicApi */
export interface ProtocolSchemaDocument {
  readonly $defs: Readonly<Record<string, unknown>>;
  readonly [keyword: string]: unknown;
}

/**
 * One definition, for a value the library builds or a provider returns: `conforms` on the way out, and, when it
 * does not, its problems worded as a check's are (a union's `$ref` branches placed).
 * @publicApi
 */
export interface ProtocolShape {
  readonly conforms: ValidateFunction;
  problems(value: unknown): SchemaProblem[];
}

/** One definition, compiled twice: naming every problem, and stopping at the first. */
interface Compiled {
  readonly all: ValidateFunction;
  readonly first: ValidateFunction;
}

/** Validators compiled ahead of time for a document's `$defs` (a generated module), in both variants. */
export interface PrecompiledDefinitions {
  readonly all: PrecompiledValidators;
  readonly first: PrecompiledValidators;
}

/**
 * The ajv instance a protocol schema compiles with (draft 2020-12, formats asserted, errors merged linearly, a
 * non-finite number no `number` nor `integer`).
 */
export function protocolAjv(allErrors: boolean, source = false): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, strictNumbers: true, allErrors, validateFormats: true, code: { ...LINEAR_ERROR_MERGE, source } });
  addFormats(ajv);
  return ajv;
}

let vendored: Promise<ProtocolSchema> | undefined;

/** The validators each precompiled export built, once per process however many schema instances share it. */
const built = new WeakMap<PrecompiledValidators, Readonly<Record<string, ValidateFunction>>>();

function builtOnce(validators: PrecompiledValidators): Readonly<Record<string, ValidateFunction>> {
  let made = built.get(validators);
  if (!made) built.set(validators, (made = validators(FORMATS)));
  return made;
}

/**
 * The protocol schema: checks values against one official schema document's `$defs`, each compiled ahead of time
 * or once on first use (ajv, draft 2020-12, formats asserted); providers compile theirs at module init, so requests
 * only validate.
 * Past the detailed-check bound a check names only the first problem. Default: {@link ProtocolSchema.vendored}.
 * @publicApi
 */
export class ProtocolSchema {
  private readonly compiledDefinitions = new Map<string, Compiled>();
  /** Built on the first definition that was not precompiled. */
  private ajv?: { readonly all: Ajv2020; readonly first: Ajv2020 };
  /** The precompiled validators, by definition name, in both variants. */
  private readonly precompiled?: { readonly all: Readonly<Record<string, ValidateFunction>>; readonly first: Readonly<Record<string, ValidateFunction>> };
  /** The `$defs` names the schema has. */
  readonly definitions: ReadonlySet<string>;

  constructor(
    private readonly document: ProtocolSchemaDocument,
    private readonly id = 'mcp-protocol',
    precompiled?: PrecompiledDefinitions,
  ) {
    this.definitions = new Set(Object.keys(document.$defs));
    if (precompiled) this.precompiled = { all: builtOnce(precompiled.all), first: builtOnce(precompiled.first) };
  }

  /**
   * The vendored 2026-07-28 schema with its corrections (`SCHEMA_CORRECTIONS`), loaded once per process however
   * many mounts share it. The definitions the library checks come precompiled; another compiles on first use, so a
   * provider checking one compiles it at module init.
   */
  static vendored(): Promise<ProtocolSchema> {
    return (vendored ??= Promise.all([readFile(VENDORED_SCHEMA, 'utf8'), import(VENDORED_VALIDATORS) as Promise<PrecompiledDefinitions>]).then(
      ([text, precompiled]) => new ProtocolSchema(correctedSchema(JSON.parse(text) as ProtocolSchemaDocument), VENDORED_SCHEMA_ID, precompiled),
    ));
  }

  /** Compiles (once) one `$defs` entry and returns the validator that names every problem. */
  validator(definition: string): ValidateFunction {
    return this.compiled(definition).all;
  }

  /** One definition as a {@link ProtocolShape}, compiled now (at module init). */
  shape(definition: string): ProtocolShape {
    return { conforms: this.validator(definition), problems: (value) => this.check(definition, value) };
  }

  /**
   * Validates a value against one definition: no problems means it conforms. `requiredBeside` names properties the
   * caller requires beyond the definition (a modern request's `params`): a null sent for one is not worded as an
   * optional property's.
   */
  check(definition: string, value: unknown, requiredBeside: readonly string[] = []): SchemaProblem[] {
    const { all, first } = this.compiled(definition);
    const failed = failedCheck(all, first, value);
    if (!failed) return [];
    // The definitions a checked one's unions branch to are precompiled beside it (`precompiledDefinitions`).
    const lookup = failed.firstOnly ? undefined : unionLookup(this.document, definition, value, (ref) => this.branchValidator(ref));
    const root = { $ref: `#/$defs/${definition}`, ...(requiredBeside.length > 0 && { required: requiredBeside }) };
    return describeSchemaErrors(failed.errors, lookup, undefined, failed.firstOnly, { value, schema: { document: this.document, root } });
  }

  /** The validator of a union branch that is a `$ref` to a definition (the protocol's unions have no others). */
  private branchValidator(ref: string): ValidateFunction | undefined {
    const name = definitionName(ref);
    return name !== undefined && this.definitions.has(name) ? this.compiled(name).all : undefined;
  }

  private compiled(definition: string): Compiled {
    let compiled = this.compiledDefinitions.get(definition);
    if (!compiled) {
      if (!this.definitions.has(definition)) throw new Error(`The protocol schema has no definition ${definition}`);
      compiled = this.precompiledDefinition(definition) ?? this.compile(definition);
      this.compiledDefinitions.set(definition, compiled);
    }
    return compiled;
  }

  private precompiledDefinition(definition: string): Compiled | undefined {
    const all = this.precompiled?.all[definition];
    const first = this.precompiled?.first[definition];
    return all && first ? { all, first } : undefined;
  }

  private compile(definition: string): Compiled {
    const build = (allErrors: boolean) => protocolAjv(allErrors).addSchema(this.document, this.id);
    this.ajv ??= { all: build(true), first: build(false) };
    const ref = `${this.id}#/$defs/${definition}`;
    return { all: this.ajv.all.getSchema(ref)!, first: this.ajv.first.getSchema(ref)! };
  }
}

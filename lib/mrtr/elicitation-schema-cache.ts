import type { ValidateFunction } from 'ajv';

import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { SchemaCompiler } from '../validation/schema-compiler.js';

/** How many distinct requested schemas keep a compiled validator. */
const ELICITATION_SCHEMAS_MAX = 128;

/**
 * Compiled validators of elicitation `requestedSchema`s (tool-written, so they vary at run time), one per distinct
 * schema JSON, at most {@link ELICITATION_SCHEMAS_MAX}, the least recently used evicted. Formats are asserted.
 * Each schema compiles on a compiler (an ajv instance) of its own, dropped with it: ajv keeps what one instance
 * compiled even after `removeSchema`, so a shared instance grew with every schema ever seen.
 */
export class ElicitationSchemaCache {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly max = ELICITATION_SCHEMAS_MAX) {}

  /**
   * The validator of one requested schema, built as a tool's schema is at module init (`SchemaCompiler`); throws
   * what that refuses (the tool's schema is at fault), as an `Error` naming the offence.
   */
  validator(requestedSchema: Readonly<Record<string, unknown>>): ValidateFunction {
    const id = JSON.stringify(requestedSchema);
    const hit = this.validators.get(id);
    if (hit) {
      this.validators.delete(id);
      this.validators.set(id, hit);
      return hit;
    }
    let validate: ValidateFunction;
    try {
      validate = new SchemaCompiler().compile(JSON.parse(id), 'requestedSchema');
    } catch (thrown) {
      throw thrown instanceof McpConfigurationError ? new Error(thrown.offence, { cause: thrown }) : thrown;
    }
    this.validators.set(id, validate);
    if (this.validators.size > this.max) this.validators.delete(this.validators.keys().next().value!);
    return validate;
  }

  /** How many validators are kept. */
  get size(): number {
    return this.validators.size;
  }
}

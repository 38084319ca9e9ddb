import type { ValidateFunction } from 'ajv';

import { callerValueAjv } from '../validation/caller-value-ajv.js';
import { describeCycle, inPlaceCycle } from '../validation/in-place-cycle.js';
import { metaSchemaProblems } from '../validation/meta-schema.js';

/** How many distinct requested schemas keep a compiled validator. */
const ELICITATION_SCHEMAS_MAX = 128;

/**
 * Compiled validators of elicitation `requestedSchema`s (tool-written, so they vary at run time), one per distinct
 * schema JSON, at most {@link ELICITATION_SCHEMAS_MAX}, the least recently used evicted. Formats are asserted.
 * Each schema compiles on an ajv instance of its own, dropped with it: ajv keeps what one instance compiled even
 * after `removeSchema`, so a shared instance grew with every schema ever seen.
 */
export class ElicitationSchemaCache {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly max = ELICITATION_SCHEMAS_MAX) {}

  /**
   * The validator of one requested schema; throws when ajv cannot build it or it could never finish checking a value
   * ({@link inPlaceCycle}): the tool's schema is at fault.
   */
  validator(requestedSchema: Readonly<Record<string, unknown>>): ValidateFunction {
    const id = JSON.stringify(requestedSchema);
    const hit = this.validators.get(id);
    if (hit) {
      this.validators.delete(id);
      this.validators.set(id, hit);
      return hit;
    }
    const schema = JSON.parse(id) as object;
    const ajv = callerValueAjv();
    const invalid = metaSchemaProblems(schema, ajv);
    if (invalid) throw new Error(invalid);
    const cycle = id.includes('"$ref"') ? inPlaceCycle(schema, ajv.RULES.all) : undefined;
    if (cycle) throw new Error(describeCycle(cycle));
    const validate = ajv.compile(schema);
    this.validators.set(id, validate);
    if (this.validators.size > this.max) this.validators.delete(this.validators.keys().next().value!);
    return validate;
  }

  /** How many validators are kept. */
  get size(): number {
    return this.validators.size;
  }
}

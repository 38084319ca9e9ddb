import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

import { callerValueAjv } from '../validation/caller-value-ajv.js';
import { metaSchemaProblems } from '../validation/meta-schema.js';

/** How many distinct requested schemas keep a compiled validator. */
const ELICITATION_SCHEMAS_MAX = 128;

/**
 * Compiled validators of elicitation `requestedSchema`s (tool-written, so they vary at run time), one per distinct
 * schema JSON, at most {@link ELICITATION_SCHEMAS_MAX}: the least recently used is evicted from the map and from
 * ajv, so nothing grows without bound. Formats are asserted.
 */
export class ElicitationSchemaCache {
  /** Built on the first requested schema, so a server whose tools never elicit does not build it at startup. */
  private ajvInstance: Ajv2020 | undefined;
  private readonly validators = new Map<string, { schema: object; validate: ValidateFunction }>();

  constructor(private readonly max = ELICITATION_SCHEMAS_MAX) {}

  /** The meta-schema check is the precompiled one (ajv's own costs about 100 ms to build, on a request). */
  private get ajv(): Ajv2020 {
    return (this.ajvInstance ??= callerValueAjv());
  }

  /** The validator of one requested schema; throws when ajv cannot build it (the tool's schema is at fault). */
  validator(requestedSchema: Readonly<Record<string, unknown>>): ValidateFunction {
    const id = JSON.stringify(requestedSchema);
    const hit = this.validators.get(id);
    if (hit) {
      this.validators.delete(id);
      this.validators.set(id, hit);
      return hit.validate;
    }
    const schema = JSON.parse(id) as object;
    const invalid = metaSchemaProblems(schema, this.ajv);
    if (invalid) throw new Error(invalid);
    const validate = this.ajv.compile(schema);
    this.validators.set(id, { schema, validate });
    if (this.validators.size > this.max) {
      const [oldest, entry] = this.validators.entries().next().value!;
      this.validators.delete(oldest);
      this.ajv.removeSchema(entry.schema);
    }
    return validate;
  }

  /** How many validators are kept. */
  get size(): number {
    return this.validators.size;
  }
}

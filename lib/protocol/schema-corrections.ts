import { pointerSegments, valueAt } from '../util/json-pointer.js';
import type { ProtocolSchemaDocument } from './protocol-schema.js';

/**
 * One place where the vendored `schema.json` refuses a value that the TypeScript schema it is generated from (the
 * spec's source of truth) allows and no sentence of the spec restricts: its generator writes every TypeScript
 * `number` as `"integer"` (on purpose, for counts and codes) and drops `null`. Left as generated, because the spec
 * says integer or the value is a count: `RequestId` and `ProgressToken` ("MUST be a string or integer"), `maxTokens`,
 * `size`, `total`, `ttlMs`, error codes and a form field's `minLength`/`maxLength`/`minItems`/`maxItems`. `at` is a
 * JSON pointer into the document, `was` the value the generator wrote there, and `is` what `schema.ts` declares.
 */
export interface SchemaCorrection {
  readonly at: string;
  readonly was: readonly string[];
  readonly is: readonly string[];
  /** The declaration in `schema.ts`, for the reader. */
  readonly declared: string;
}

/** Every correction applied to the vendored 2026-07-28 schema before anything is compiled from it. */
export const SCHEMA_CORRECTIONS: readonly SchemaCorrection[] = [
  {
    at: '/$defs/ElicitResult/properties/content/additionalProperties/anyOf/1/type',
    was: ['string', 'integer', 'boolean'],
    is: ['string', 'number', 'boolean'],
    declared: 'content?: { [key: string]: string | number | boolean | string[] }',
  },
  {
    at: '/$defs/JSONValue/anyOf/2/type',
    was: ['string', 'integer', 'boolean'],
    is: ['string', 'number', 'boolean', 'null'],
    declared: 'type JSONValue = string | number | boolean | null | JSONObject | JSONArray',
  },
];

/**
 * A copy of `document` with {@link SCHEMA_CORRECTIONS} applied. Throws where a correction's place no longer holds
 * what it corrects (a newer vendored schema fixed it, or moved it): the list is then to be revised, not skipped.
 */
export function correctedSchema(document: ProtocolSchemaDocument): ProtocolSchemaDocument {
  const copy = structuredClone(document) as ProtocolSchemaDocument;
  for (const { at, was, is } of SCHEMA_CORRECTIONS) {
    const segments = pointerSegments(at);
    const key = String(segments.pop());
    const holder = valueAt(copy, segments) as Record<string, unknown> | undefined;
    if (JSON.stringify(holder?.[key]) !== JSON.stringify(was))
      throw new Error(`The vendored protocol schema holds ${JSON.stringify(holder?.[key])} at ${at}, not ${JSON.stringify(was)}: revise SCHEMA_CORRECTIONS`);
    holder![key] = [...is];
  }
  return copy;
}

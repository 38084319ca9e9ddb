import { pointerSegments } from '../validation/schema-problems.js';
import type { ProtocolSchemaDocument } from './protocol-schema.js';

/**
 * One place where the vendored `schema.json` says less than the TypeScript schema it is generated from, which the
 * spec names its source of truth: the generator writes a TypeScript `number` as `"integer"` unless told otherwise,
 * and drops `null`. `at` is a JSON pointer into the document, `was` the value the generator wrote there, and `is`
 * what `schema.ts` declares.
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
    const segments = pointerSegments(at).map(String);
    const key = segments.pop()!;
    let parent: unknown = copy;
    for (const segment of segments) parent = (parent as Record<string, unknown> | undefined)?.[segment];
    const holder = parent as Record<string, unknown> | undefined;
    if (JSON.stringify(holder?.[key]) !== JSON.stringify(was))
      throw new Error(`The vendored protocol schema holds ${JSON.stringify(holder?.[key])} at ${at}, not ${JSON.stringify(was)}: revise SCHEMA_CORRECTIONS`);
    holder![key] = [...is];
  }
  return copy;
}

import { readFile } from 'node:fs/promises';

import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';

import { FORM_FORMATS, formFieldOffence } from '../../lib/mrtr/form-fields.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';

const schema = await ProtocolSchema.vendored();
const vendored = JSON.parse(await readFile(new URL('../../lib/schema/mcp-2026-07-28.schema.json', import.meta.url), 'utf8')) as {
  $defs: { StringSchema: { properties: { format: { enum: string[] } } } };
};

/** Whether the protocol schema takes a form with this one field. */
const takes = (field: unknown) =>
  schema.check('ElicitRequest', { method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: { f: field } } } }).length === 0;

/** What zod writes for one field, without the root's `$schema`. */
const zodField = (field: z.ZodType): Record<string, unknown> => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(field, { io: 'input' });
  return rest;
};

describe("formFieldOffence: why a field is none of MCP's form field shapes, for what converters write", () => {
  it.each([
    ['zod .nullable()', zodField(z.string().nullable()), 'needs one "type", not ["string","null"] (to make it optional, leave it out of "required")'],
    ['zod z.union([z.string(), z.number()])', zodField(z.union([z.string(), z.number()])), 'needs one "type", not ["string","number"]'],
    ['a nested object (zod z.object)', zodField(z.object({ street: z.string() })), 'is a nested object (forms take flat fields)'],
    [
      'titled literals (zod z.union of z.literal(…).meta({ title }))',
      zodField(z.union([z.literal('a').meta({ title: 'A' }), z.literal('b').meta({ title: 'B' })])),
      'is a union of literals: write "type": "string" with an "enum" of them, or a "oneOf" of { "const", "title" } (zod: z.enum)',
    ],
    ['a union of shapes without a type', { anyOf: [{ type: 'string' }, { type: 'number' }] }, 'is a union of types, where a form field has one "type"'],
    ['a oneOf of shapes without a type', { oneOf: [{ type: 'string' }, { type: 'number' }] }, 'is a union of types, where a form field has one "type"'],
    ['a union of a literal and a shape', { anyOf: [{ const: 'a' }, { type: 'string' }] }, 'is a union of types, where a form field has one "type"'],
    ['properties without a type', { properties: { street: { type: 'string' } } }, 'is a nested object (forms take flat fields)'],
    ['an enum without a type (ArkType)', { enum: ['free', 'pro'] }, 'needs "type": "string" beside its "enum" (of strings)'],
    ['a constant without a type', { const: 'only' }, 'is one value ("const"): write "type": "string" with an "enum" of it'],
    ['a format MCP does not define (zod z.uuid())', zodField(z.uuid()), 'has format "uuid", none of date, date-time, email, uri'],
    [
      'a list of free strings (zod z.array(z.string()))',
      zodField(z.array(z.string())),
      'is a list, whose "items" need an "enum" of strings (or an "anyOf" of { "const", "title" })',
    ],
    ['no type at all', { description: 'x' }, 'has no "type" (string, number, integer, boolean, array)'],
    ['a type no field has', { type: 'null' }, 'has "type" "null", none of string, number, integer, boolean, array'],
    ['not an object', 'string', 'is not a schema object'],
    [
      'a number field with a format and a keyword of the wrong kind (only a string field has a format)',
      { type: 'number', format: 'double', minimum: 'zero' },
      "is none of MCP's number field shapes (PrimitiveSchemaDefinition in the MCP schema)",
    ],
    [
      'a number field with a keyword of the wrong kind',
      { type: 'number', minimum: 'zero' },
      "is none of MCP's number field shapes (PrimitiveSchemaDefinition in the MCP schema)",
    ],
  ])('%s', (_what, field, offence) => {
    expect(takes(field)).toBe(false);
    expect(formFieldOffence(field)).toBe(offence);
  });

  it("knows exactly the string formats of the protocol schema's StringSchema", () => {
    expect([...FORM_FORMATS].sort()).toEqual([...vendored.$defs.StringSchema.properties.format.enum].sort());
    for (const format of FORM_FORMATS) expect(takes({ type: 'string', format })).toBe(true);
  });
});

import { describe, expect, it } from '@jest/globals';

import { FORM_FORMATS, formFieldOffence } from '../../lib/mrtr/form-fields.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';

const schema = await ProtocolSchema.vendored();

/** Whether the protocol schema takes a form with this one field. */
const takes = (field: unknown) =>
  schema.check('ElicitRequest', { method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: { f: field } } } }).length === 0;

describe("formFieldOffence: why a field is none of MCP's form field shapes, for what converters write", () => {
  it.each([
    ['a nullable field (zod .nullable())', { type: ['string', 'null'] }, 'has one "type", not ["string","null"] (optional: leave it out of "required")'],
    ['a nested object', { type: 'object', properties: { a: { type: 'string' } } }, 'is a nested object (forms take flat fields)'],
    ['an enum without a type (ArkType)', { enum: ['free', 'pro'] }, 'is a choice: it needs "type": "string" beside its enum or oneOf'],
    [
      'titled literals as anyOf, without a type (zod union of literals)',
      { anyOf: [{ const: 'a', title: 'A' }] },
      'is a choice: it needs "type": "string" beside its enum or oneOf',
    ],
    ['a format MCP does not define (zod z.uuid())', { type: 'string', format: 'uuid', pattern: '^[0-9a-f-]{36}$' }, 'has format "uuid", none of date, date-time, email, uri'],
    ['no type at all', { description: 'x' }, 'has no "type" (string, number, integer, boolean, array)'],
    ['a type no field has', { type: 'null' }, 'has "type" "null", none of string, number, integer, boolean, array'],
    ['not an object', 'string', 'is not a schema object'],
    ['a number field with a keyword of the wrong kind', { type: 'number', minimum: 'zero' }, "is none of MCP's number field shapes (ElicitRequestFormParams)"],
  ])('%s', (_what, field, offence) => {
    expect(takes(field)).toBe(false);
    expect(formFieldOffence(field)).toBe(offence);
  });

  it.each(FORM_FORMATS)('names only formats the protocol schema refuses: %s is taken', (format) => {
    expect(takes({ type: 'string', format })).toBe(true);
  });
});

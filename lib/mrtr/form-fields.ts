import { bounded, quoted } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';

/** The string formats MCP's form fields may name (`StringSchema.format` of the protocol schema). */
export const FORM_FORMATS: readonly string[] = ['date', 'date-time', 'email', 'uri'];

/** The types a form field may have (`PrimitiveSchemaDefinition` of the protocol schema). */
const FIELD_TYPES: readonly string[] = ['string', 'number', 'integer', 'boolean', 'array'];

/**
 * Why one field of a form's `requestedSchema` is none of MCP's form field shapes (a string, a number or integer, a
 * boolean, a single choice of strings, or a list of choices), in a sentence naming the commonest causes: what
 * schema converters write for a nullable, nested, union or format-checked field. Failure path only: the protocol
 * schema has already refused the field.
 */
export function formFieldOffence(field: unknown): string {
  if (!isPlainObject(field)) return 'is not a schema object';
  const { type } = field;
  if (Array.isArray(type)) return `needs one "type", not ${shown(type)}${type.includes('null') ? ' (to make it optional, leave it out of "required")' : ''}`;
  if (type === 'object' || field.properties !== undefined) return 'is a nested object (forms take flat fields)';
  if (type === undefined) return untypedOffence(field);
  if (type === 'string' && field.format !== undefined && !FORM_FORMATS.includes(field.format as string))
    return `has format ${shown(field.format)}, none of ${FORM_FORMATS.join(', ')}`;
  if (type === 'array') return 'is a list, whose "items" need an "enum" of strings (or an "anyOf" of { "const", "title" })';
  if (!FIELD_TYPES.includes(type as string)) return `has "type" ${shown(type)}, none of ${FIELD_TYPES.join(', ')}`;
  return `is none of MCP's ${type} field shapes (PrimitiveSchemaDefinition in the MCP schema)`;
}

/** Why a field without a `type` is none: the unions, enums and constants converters write without one. */
function untypedOffence(field: Record<string, unknown>): string {
  const union = field.anyOf ?? field.oneOf;
  if (Array.isArray(union))
    return union.every((member) => isPlainObject(member) && member.const !== undefined)
      ? 'is a union of literals: write "type": "string" with an "enum" of them, or a "oneOf" of { "const", "title" } (zod: z.enum)'
      : 'is a union of types, where a form field has one "type"';
  if (field.enum !== undefined) return 'needs "type": "string" beside its "enum" (of strings)';
  if (field.const !== undefined) return 'is one value ("const"): write "type": "string" with an "enum" of it';
  return `has no "type" (${FIELD_TYPES.join(', ')})`;
}

/** A value of the field as JSON writes it (the field is a JSON copy), a string quoted; bounded. */
const shown = (value: unknown): string => (typeof value === 'string' ? quoted(value, 60) : bounded(JSON.stringify(value), 60));

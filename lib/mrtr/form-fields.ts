import { bounded, quoted } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';

/** The string formats MCP's form fields may name (`StringSchema.format` of the protocol schema). */
export const FORM_FORMATS: readonly string[] = ['date', 'date-time', 'email', 'uri'];

/**
 * Why one field of a form's `requestedSchema` is none of MCP's form field shapes (a string, a number or integer, a
 * boolean, a single choice of strings, or a list of choices), in a sentence naming the commonest causes: what
 * schema converters write for a nullable, nested, union or format-checked field. Failure path only: the protocol
 * schema has already refused the request.
 */
export function formFieldOffence(field: unknown): string {
  if (!isPlainObject(field)) return 'is not a schema object';
  const { type } = field;
  if (Array.isArray(type)) return `has one "type", not ${shown(type)} (optional: leave it out of "required")`;
  if (type === 'object' || field.properties !== undefined) return 'is a nested object (forms take flat fields)';
  if (type === undefined) {
    const choice = ['enum', 'oneOf', 'anyOf', 'const'].some((keyword) => field[keyword] !== undefined);
    return choice ? 'is a choice: it needs "type": "string" beside its enum or oneOf' : 'has no "type" (string, number, integer, boolean, array)';
  }
  if (type === 'string' && field.format !== undefined && !FORM_FORMATS.includes(field.format as string))
    return `has format ${shown(field.format)}, none of ${FORM_FORMATS.join(', ')}`;
  if (!['string', 'number', 'integer', 'boolean', 'array'].includes(type as string)) return `has "type" ${shown(type)}, none of string, number, integer, boolean, array`;
  return `is none of MCP's ${type} field shapes (ElicitRequestFormParams)`;
}

/** A value of the field as JSON writes it (the field is a JSON copy), a string quoted; bounded. */
const shown = (value: unknown): string => (typeof value === 'string' ? quoted(value, 60) : bounded(JSON.stringify(value), 60));

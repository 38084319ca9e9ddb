// How each failing keyword is worded: from the keyword and its schema, never from ajv's messages or the sent value
// (schema-problems.ts reads a caller's value for three wordings, and never quotes it).

import type { ErrorObject } from 'ajv';

import { firstListed } from '../util/first-listed.js';
import { typeNamed } from '../util/type-named.js';
import { formatProblem } from './format-examples.js';

/** The most allowed values a `const`/`enum` problem names; the rest are counted. */
export const VALUES_LISTED = 8;

/** Values as a problem names them: JSON, the first {@link VALUES_LISTED}, then how many more. */
export const listedValues = (values: unknown): string =>
  firstListed(Array.isArray(values) ? values : [values], VALUES_LISTED, { spell: (v) => JSON.stringify(v) ?? String(v), counted: true });

/** A failing keyword's `params`, as ajv reports them. */
export type KeywordParams = Record<string, unknown>;
type Worded = { extra?: string | number; problem: string };

const bound = (p: KeywordParams): Worded => ({ problem: `must be ${String(p.comparison)} ${String(p.limit)}` });
const atLeast =
  (what: string) =>
  (p: KeywordParams): Worded => ({ problem: `must have at least ${String(p.limit)} ${what}` });
const atMost =
  (what: string) =>
  (p: KeywordParams): Worded => ({ problem: `must have at most ${String(p.limit)} ${what}` });
const dependent = (p: KeywordParams): Worded => ({ problem: `must also have ${JSON.stringify(p.missingProperty)} when ${JSON.stringify(p.property)} is present` });
/** The property an `additionalProperties`/`unevaluatedProperties` failure refuses, as ajv names it. */
export const refusedProperty = (p: KeywordParams): string => String(p.additionalProperty ?? p.unevaluatedProperty);
/** The problem of a property the object's schema does not take. */
export const NOT_ALLOWED = 'is not an allowed property';
const notAllowed = (p: KeywordParams): Worded => ({ extra: refusedProperty(p), problem: NOT_ALLOWED });

/**
 * How each keyword's failure is worded: the closed list of keywords this library words itself (any other reads
 * `does not satisfy "<keyword>"`). Proven by: test/sweeps/value-gate-keywords.sweep.e2e-spec.ts
 */
export const KEYWORD_WORDINGS = {
  required: (p: KeywordParams): Worded => ({ problem: `missing required property ${JSON.stringify(p.missingProperty)}` }),
  additionalProperties: notAllowed,
  unevaluatedProperties: notAllowed,
  type: (p: KeywordParams): Worded => ({ problem: `must be ${String(p.type).split(',').map(typeNamed).join(' or ')}` }),
  const: (p: KeywordParams): Worded => ({ problem: `must be ${listedValues([p.allowedValue])}` }),
  enum: (p: KeywordParams): Worded => ({ problem: `must be one of ${listedValues(p.allowedValues)}` }),
  format: (p: KeywordParams): Worded => ({ problem: formatProblem(String(p.format)) }),
  minimum: bound,
  maximum: bound,
  exclusiveMinimum: bound,
  exclusiveMaximum: bound,
  multipleOf: (p: KeywordParams): Worded => ({ problem: `must be a multiple of ${String(p.multipleOf)}` }),
  minLength: atLeast('character(s)'),
  maxLength: atMost('character(s)'),
  minItems: atLeast('item(s)'),
  maxItems: atMost('item(s)'),
  minProperties: atLeast('propert(ies)'),
  maxProperties: atMost('propert(ies)'),
  uniqueItems: (): Worded => ({ problem: 'must not contain duplicate items' }),
  // `items: false` after `prefixItems` (zod's tuple): no item past those.
  items: atMost('item(s)'),
  // As written in the schema: JSON's escaping would double each backslash of a pattern the message quotes.
  pattern: (p: KeywordParams): Worded => ({ problem: `must match the pattern "${String(p.pattern)}"` }),
  anyOf: (): Worded => ({ problem: 'must match at least one of the allowed shapes' }),
  // ajv names the first two shapes a value matches when it matches several (by index): a caller reading only
  // "exactly one" takes its value for one that matches none.
  oneOf: (p: KeywordParams): Worded =>
    Array.isArray(p.passingSchemas)
      ? { problem: `must match exactly one of the allowed shapes, not several (shapes ${p.passingSchemas.map((i) => Number(i) + 1).join(' and ')} both match)` }
      : { problem: 'must match exactly one of the allowed shapes' },
  not: (): Worded => ({ problem: 'must not match the excluded shape' }),
  dependentRequired: dependent,
  dependencies: dependent,
  propertyNames: (p: KeywordParams): Worded => ({ extra: String(p.propertyName), problem: 'is not an allowed property name' }),
  contains: (p: KeywordParams): Worded => {
    const most = p.maxContains === undefined ? '' : ` and at most ${String(p.maxContains)}`;
    return { problem: `must contain at least ${String(p.minContains ?? 1)}${most} matching item(s)` };
  },
  if: (p: KeywordParams): Worded =>
    p.failingKeyword === 'else'
      ? { problem: 'must match the "else" schema (it does not match the "if" schema)' }
      : { problem: 'must match the "then" schema (it matches the "if" schema)' },
  'false schema': (): Worded => ({ problem: 'is not allowed here' }),
} as const satisfies Record<string, (p: KeywordParams) => Worded>;

export function wordProblem(error: ErrorObject): Worded {
  const word = Object.hasOwn(KEYWORD_WORDINGS, error.keyword) ? KEYWORD_WORDINGS[error.keyword as keyof typeof KEYWORD_WORDINGS] : undefined;
  return word ? word(error.params as KeywordParams) : { problem: `does not satisfy "${error.keyword}"` };
}

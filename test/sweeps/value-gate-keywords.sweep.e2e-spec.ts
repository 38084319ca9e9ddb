import { describe, expect, it } from '@jest/globals';

import { McpAction, McpTool } from '../../lib/index.js';
import { KEYWORD_WORDINGS } from '../../lib/validation/keyword-wordings.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool } from '../support/tool-call.js';

type Keyword = keyof typeof KEYWORD_WORDINGS;

/** Union branches of one JSON type with no discriminator, so a value failing both is worded by the union itself. */
const SAME_TYPE_BRANCHES = [
  { type: 'string', minLength: 3 },
  { type: 'string', pattern: '^[0-9]+$' },
];

/**
 * One cell per keyword the library words: a schema using it, a value breaking it, and the exact problem text the
 * caller reads, sent nested inside an action's data (`data[keyword].nested`). A keyword the unknown-key gate
 * answers before the value gate ever sees it says so (`gate: 'unknown_params'`): asserted, not skipped.
 * `satisfies Record<Keyword, …>` closes the list: a keyword worded without a cell fails the type check.
 */
const CELLS = {
  required: { schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, bad: {}, problem: 'missing required property "a"' },
  additionalProperties: { schema: { type: 'object', properties: {}, additionalProperties: false }, bad: { x: 1 }, gate: 'unknown_params' },
  unevaluatedProperties: { schema: { type: 'object', properties: {}, unevaluatedProperties: false }, bad: { x: 1 }, gate: 'unknown_params' },
  type: { schema: { type: 'integer' }, bad: 'seven', problem: 'must be an integer' },
  const: { schema: { const: [1, 2] }, bad: [2, 1], problem: 'must be [1,2]' },
  enum: { schema: { enum: ['low', 'high'] }, bad: 'urgent', problem: 'must be one of "low", "high"' },
  format: { schema: { type: 'string', format: 'date' }, bad: 'next friday', problem: 'must be a valid date, such as "2026-07-28"' },
  minimum: { schema: { type: 'number', minimum: 5 }, bad: 4, problem: 'must be >= 5' },
  maximum: { schema: { type: 'number', maximum: 5 }, bad: 6, problem: 'must be <= 5' },
  exclusiveMinimum: { schema: { type: 'number', exclusiveMinimum: 5 }, bad: 5, problem: 'must be > 5' },
  exclusiveMaximum: { schema: { type: 'number', exclusiveMaximum: 5 }, bad: 5, problem: 'must be < 5' },
  multipleOf: { schema: { type: 'number', multipleOf: 3 }, bad: 7, problem: 'must be a multiple of 3' },
  minLength: { schema: { type: 'string', minLength: 3 }, bad: 'ab', problem: 'must have at least 3 character(s)' },
  maxLength: { schema: { type: 'string', maxLength: 3 }, bad: 'abcd', problem: 'must have at most 3 character(s)' },
  minItems: { schema: { type: 'array', minItems: 2 }, bad: [1], problem: 'must have at least 2 item(s)' },
  maxItems: { schema: { type: 'array', maxItems: 1 }, bad: [1, 2], problem: 'must have at most 1 item(s)' },
  minProperties: { schema: { type: 'object', properties: { a: {}, b: {} }, minProperties: 2 }, bad: { a: 1 }, problem: 'must have at least 2 propert(ies)' },
  maxProperties: { schema: { type: 'object', properties: { a: {}, b: {} }, maxProperties: 1 }, bad: { a: 1, b: 2 }, problem: 'must have at most 1 propert(ies)' },
  uniqueItems: { schema: { type: 'array', uniqueItems: true }, bad: [1, 1], problem: 'must not contain duplicate items' },
  items: { schema: { type: 'array', prefixItems: [{ type: 'integer' }], items: false }, bad: [1, 2], problem: 'must have at most 1 item(s)' },
  pattern: { schema: { type: 'string', pattern: '^[A-Z]{3}$' }, bad: 'abc', problem: 'must match the pattern "^[A-Z]{3}$"' },
  anyOf: { schema: { anyOf: SAME_TYPE_BRANCHES }, bad: 'ab', problem: 'must match at least one of the allowed shapes' },
  oneOf: {
    schema: { oneOf: [{ type: 'number' }, { type: 'integer' }] },
    bad: 3,
    problem: 'must match exactly one of the allowed shapes, not several (shapes 1 and 2 both match)',
  },
  not: { schema: { not: { type: 'string' } }, bad: 'x', problem: 'must not match the excluded shape' },
  dependentRequired: {
    schema: { type: 'object', properties: { card: {}, billing: {} }, dependentRequired: { card: ['billing'] } },
    bad: { card: 1 },
    problem: 'must also have "billing" when "card" is present',
  },
  dependencies: {
    schema: { type: 'object', properties: { card: {}, billing: {} }, dependencies: { card: ['billing'] } },
    bad: { card: 1 },
    problem: 'must also have "billing" when "card" is present',
  },
  propertyNames: { schema: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } }, bad: { Bad: 1 }, path: 'Bad', problem: 'its name must match the pattern "^[a-z]+$"' },
  contains: { schema: { type: 'array', contains: { type: 'integer' }, maxContains: 2 }, bad: [1, 2, 3], problem: 'must contain at least 1 and at most 2 matching item(s)' },
  if: {
    schema: { type: 'object', properties: { kind: {}, size: {} }, if: { properties: { kind: { const: 'box' } } }, then: { required: ['size'] } },
    bad: { kind: 'box' },
    problems: ['missing required property "size"', 'must match the "then" schema (it matches the "if" schema)'],
  },
  'false schema': { schema: false, bad: 1, problem: 'is not allowed here' },
} satisfies Record<Keyword, { schema: unknown; bad: unknown; problem?: string; problems?: string[]; path?: string; gate?: 'unknown_params' }>;

type Cell = { schema: unknown; bad: unknown; problem?: string; problems?: string[]; path?: string; gate?: 'unknown_params' };
const KEYWORDS = Object.keys(KEYWORD_WORDINGS) as Keyword[];
/** Property names that are safe data keys: `false schema` becomes `false_schema`. */
const key = (keyword: Keyword) => keyword.replace(/\W/g, '_');

/**
 * Cases beyond the one cell per keyword: a wording's other branch, a keyword the unknown-key gate leaves to the
 * value gate, and a keyword the library does not word. Each is sent under `data[edge_<index>].nested`.
 */
const EDGES: [string, Cell][] = [
  ['type, given a list of types', { schema: { type: ['string', 'integer'] }, bad: true, problem: 'must be a string or an integer' }],
  [
    'if, failing "else"',
    {
      schema: { if: { type: 'string' }, then: { minLength: 1 }, else: { type: 'integer' } },
      bad: 1.5,
      problems: ['must be an integer', 'must match the "else" schema (it does not match the "if" schema)'],
    },
  ],
  [
    'unevaluatedProperties, on an object the unknown-key gate leaves open',
    { schema: { type: 'object', allOf: [{ properties: { a: {} } }], unevaluatedProperties: false }, bad: { a: 1, b: 2 }, path: 'b', problem: 'is not an allowed property' },
  ],
  [
    'enum, with more allowed values than it lists',
    {
      schema: { enum: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'] },
      bad: 'z',
      problem: 'must be one of "a", "b", "c", "d", "e", "f", "g", "h", … (10 in all)',
    },
  ],
  ['oneOf, matching no shape: one problem, not one per shape', { schema: { oneOf: SAME_TYPE_BRANCHES }, bad: 'ab', problem: 'must match exactly one of the allowed shapes' }],
  [
    'unevaluatedItems, which the library does not word',
    { schema: { type: 'array', prefixItems: [{}], unevaluatedItems: false }, bad: [1, 2], problem: 'does not satisfy "unevaluatedItems"' },
  ],
];
const edgeKey = (index: number) => `edge_${index}`;

@McpTool({ name: 'kw', description: 'One nested property per worded keyword.' })
class KeywordTool {
  @McpAction({
    description: 'Checks the data',
    properties: Object.fromEntries([
      ...KEYWORDS.map((k) => [key(k), { type: 'object', properties: { nested: (CELLS[k] as Cell).schema } }]),
      ...EDGES.map(([, cell], i) => [edgeKey(i), { type: 'object', properties: { nested: cell.schema } }]),
    ]) as never,
  })
  check() {
    return 'passed';
  }
}

describe('value gate sweep: each worded keyword, nested in action data, answers its exact problem text', () => {
  const app = useTestApp({ providers: [KeywordTool] });

  it('has one cell per worded keyword', () => {
    expect(Object.keys(CELLS).sort()).toEqual([...KEYWORDS].sort());
  });

  it.each(KEYWORDS)('%s', async (keyword) => {
    const cell = CELLS[keyword] as Cell;
    const answer = await callTool(app().server, 'kw', { action: 'check', data: { [key(keyword)]: { nested: cell.bad } } });
    expect(answer.result.isError).toBe(true);
    if (cell.gate) {
      expect(answer.body.error).toBe(cell.gate);
      return;
    }
    expect(answer.body.error).toBe('invalid_values');
    const path = `${key(keyword)}.nested${cell.path ? `.${cell.path}` : ''}`;
    expect(answer.body.invalid).toEqual([{ path, problems: cell.problems ?? [cell.problem] }]);
  });

  it.each(EDGES.map(([name, cell], i) => [name, cell, i] as const))('%s', async (_name, cell, index) => {
    const answer = await callTool(app().server, 'kw', { action: 'check', data: { [edgeKey(index)]: { nested: cell.bad } } });
    expect(answer.result.isError).toBe(true);
    expect(answer.body.error).toBe('invalid_values');
    const path = `${edgeKey(index)}.nested${cell.path ? `.${cell.path}` : ''}`;
    expect(answer.body.invalid).toEqual([{ path, problems: cell.problems ?? [cell.problem] }]);
  });
});

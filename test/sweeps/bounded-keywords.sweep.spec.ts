import { describe, expect, it } from '@jest/globals';

import { ONE_LOCATION_KEYWORDS, itemLimits } from '../../lib/validation/bounded-schema.js';
import { SchemaCompiler } from '../../lib/validation/schema-compiler.js';

type Keyword = (typeof ONE_LOCATION_KEYWORDS)[number];

const SIZE = 100_000;
const HUGE_ARRAY: unknown[] = Array.from({ length: SIZE }, () => 0);
const HUGE_OBJECT: Record<string, unknown> = Object.fromEntries(Array.from({ length: SIZE }, (_, i) => [`k${i}`, 0]));
const HUGE_STRING = 'x'.repeat(SIZE);

/**
 * One cell per keyword a bounded schema may hold: the keyword (at property `a`, or at the root for `$schema`), a
 * huge value that breaks it where it can be broken, and the most problems the every-problem check may report for
 * it: at most a fixed number, however large the value. `satisfies Record<Keyword, …>` closes the list.
 */
const CELLS = {
  $schema: { schema: { $schema: 'https://json-schema.org/draft/2020-12/schema' }, value: HUGE_OBJECT, most: 0 },
  $comment: { schema: { $comment: 'a note' }, value: HUGE_ARRAY, most: 0 },
  title: { schema: { title: 'A' }, value: HUGE_ARRAY, most: 0 },
  description: { schema: { description: 'A' }, value: HUGE_ARRAY, most: 0 },
  default: { schema: { default: 1 }, value: HUGE_ARRAY, most: 0 },
  examples: { schema: { examples: [1] }, value: HUGE_ARRAY, most: 0 },
  deprecated: { schema: { deprecated: true }, value: HUGE_ARRAY, most: 0 },
  readOnly: { schema: { readOnly: true }, value: HUGE_ARRAY, most: 0 },
  writeOnly: { schema: { writeOnly: true }, value: HUGE_ARRAY, most: 0 },
  contentEncoding: { schema: { contentEncoding: 'base64' }, value: HUGE_STRING, most: 0 },
  contentMediaType: { schema: { contentMediaType: 'application/json' }, value: HUGE_STRING, most: 0 },
  type: { schema: { type: 'string' }, value: HUGE_ARRAY, most: 1 },
  enum: { schema: { enum: [1, 2] }, value: HUGE_ARRAY, most: 1 },
  const: { schema: { const: [1] }, value: HUGE_ARRAY, most: 1 },
  format: { schema: { format: 'email' }, value: HUGE_STRING, most: 1 },
  pattern: { schema: { pattern: '^y' }, value: HUGE_STRING, most: 1 },
  multipleOf: { schema: { multipleOf: 2 }, value: 3, most: 1 },
  minimum: { schema: { minimum: 10 }, value: 3, most: 1 },
  maximum: { schema: { maximum: 1 }, value: 3, most: 1 },
  exclusiveMinimum: { schema: { exclusiveMinimum: 3 }, value: 3, most: 1 },
  exclusiveMaximum: { schema: { exclusiveMaximum: 3 }, value: 3, most: 1 },
  minLength: { schema: { minLength: SIZE + 1 }, value: HUGE_STRING, most: 1 },
  maxLength: { schema: { maxLength: 1 }, value: HUGE_STRING, most: 1 },
  minItems: { schema: { minItems: SIZE + 1 }, value: HUGE_ARRAY, most: 1 },
  maxItems: { schema: { maxItems: 1 }, value: HUGE_ARRAY, most: 1 },
  uniqueItems: { schema: { uniqueItems: true }, value: HUGE_ARRAY, most: 1 },
  minProperties: { schema: { minProperties: SIZE + 1 }, value: HUGE_OBJECT, most: 1 },
  maxProperties: { schema: { maxProperties: 1 }, value: HUGE_OBJECT, most: 1 },
  required: { schema: { required: ['x', 'y'] }, value: HUGE_OBJECT, most: 2 },
  dependentRequired: { schema: { dependentRequired: { k0: ['x', 'y'], k1: ['z'] } }, value: HUGE_OBJECT, most: 3 },
} satisfies Record<Keyword, { schema: Record<string, unknown>; value: unknown; most: number }>;

describe('every keyword a bounded schema may hold reports a fixed number of problems, however large the value', () => {
  const compiler = new SchemaCompiler();

  it('has one cell per keyword', () => {
    expect(Object.keys(CELLS).sort()).toEqual([...ONE_LOCATION_KEYWORDS].sort());
  });

  it.each(ONE_LOCATION_KEYWORDS)('%s', (keyword) => {
    const { schema, value, most } = CELLS[keyword];
    const root = keyword === '$schema' ? { ...schema, type: 'object', properties: { a: {} } } : { type: 'object', properties: { a: schema } };
    expect(itemLimits(root)).toBeDefined();
    const validate = compiler.compile(root, keyword);
    const passed = validate({ a: value });
    expect(validate.errors?.length ?? 0).toBeLessThanOrEqual(most);
    // A keyword that can fail is made to: the bound is met by a failing check, not by a passing one.
    expect(passed).toBe(most === 0);
  });
});

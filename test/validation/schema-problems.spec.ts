import { describe, expect, it } from '@jest/globals';

import { callerValueAjv } from '../../lib/validation/caller-value-ajv.js';
import { describeSchemaErrors, type SchemaProblem } from '../../lib/validation/schema-problems.js';

/** The problems a schema's check finds in `value`, by path and wording. */
function problemsOf(schema: Record<string, unknown>, value: unknown): Pick<SchemaProblem, 'path' | 'problem'>[] {
  const check = callerValueAjv().compile(schema);
  expect(check(value)).toBe(false);
  return describeSchemaErrors(check.errors).map(({ path, problem }) => ({ path, problem }));
}

const circle = { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number', exclusiveMinimum: 0 } }, required: ['kind', 'radius'] };
const square = { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: ['kind', 'side'] };

describe('describeSchemaErrors on a failing union', () => {
  it.each(['oneOf', 'anyOf'])('words a %s by the one branch its discriminator (a const) picks', (union) => {
    expect(problemsOf({ [union]: [circle, square] }, { kind: 'circle', radius: -1 })).toEqual([{ path: ['radius'], problem: 'must be > 0' }]);
  });

  it('picks by an enum as by a const, and words a nested union by its own pick', () => {
    const dot = { type: 'object', properties: { kind: { enum: ['dot', 'point'] }, at: { oneOf: [circle, square] } }, required: ['kind'] };
    expect(problemsOf({ oneOf: [dot, square] }, { kind: 'point', at: { kind: 'square', side: 'x' } })).toEqual([{ path: ['at', 'side'], problem: 'must be number' }]);
  });

  it('stands for its branches when no discriminator picks one: none admits the value’s kind, or branches differ by type only', () => {
    expect(problemsOf({ oneOf: [circle, square] }, { kind: 'triangle' })).toEqual([{ path: [], problem: 'must match exactly one of the allowed shapes' }]);
    expect(problemsOf({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, 1.5)).toEqual([{ path: [], problem: 'must match at least one of the allowed shapes' }]);
  });

  it('stands for its branches when they are references (their errors cannot be placed in a branch)', () => {
    const schema = { $defs: { circle, square }, oneOf: [{ $ref: '#/$defs/circle' }, { $ref: '#/$defs/square' }] };
    expect(problemsOf(schema, { kind: 'circle', radius: -1 })).toEqual([{ path: [], problem: 'must match exactly one of the allowed shapes' }]);
  });

  it('stands for its branches when a oneOf fails by matching several', () => {
    expect(problemsOf({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 2)).toEqual([{ path: [], problem: 'must match exactly one of the allowed shapes' }]);
  });
});

import { describe, expect, it } from '@jest/globals';
import type { ErrorObject, ValidateFunction } from 'ajv';

import { failedCheck } from '../../lib/validation/value-count.js';

/** A validator standing in for one of ajv's: a fixed verdict and errors, or a real stack overflow when `overflows`. */
function validator(verdict: boolean | 'overflows', errors: ErrorObject[] = []): ValidateFunction {
  const descend = (depth: number): number => descend(depth + 1) + 1;
  const validate = (() => {
    if (verdict === 'overflows') return descend(0) > 0;
    validate.errors = verdict ? null : errors;
    return verdict;
  }) as unknown as ValidateFunction;
  return validate;
}

const problem = (instancePath: string): ErrorObject => ({ instancePath, schemaPath: '#/minLength', keyword: 'minLength', params: { limit: 1 } });

describe('failedCheck where a validator runs out of stack', () => {
  it('names the first problem (tooDeep) when only the every-problem validator overflows', () => {
    const first = validator(false, [problem('/a')]);
    expect(failedCheck(validator('overflows'), first, { a: '' })).toEqual({ errors: [problem('/a')], firstOnly: true, tooDeep: true });
  });

  it('throws the overflow when the first-problem validator, which decides, overflows: nothing was checked', () => {
    expect(() => failedCheck(validator(false), validator('overflows'), {})).toThrow(/call stack/);
  });

  it('lets any other fault of the every-problem validator through', () => {
    const faulty = (() => {
      throw new TypeError('not a stack overflow');
    }) as unknown as ValidateFunction;
    expect(() => failedCheck(faulty, validator(false, [problem('/a')]), {})).toThrow(TypeError);
  });

  it('never runs the every-problem validator on a value the first passes', () => {
    expect(failedCheck(validator('overflows'), validator(true), {})).toBeUndefined();
  });
});

import { describe, expect, it } from '@jest/globals';

import { FORMATS } from '../../lib/validation/add-formats.js';
import { callerValueAjv } from '../../lib/validation/caller-value-ajv.js';
import { FORMAT_EXAMPLES, formatProblem } from '../../lib/validation/format-examples.js';
import { describeSchemaErrors } from '../../lib/validation/schema-problems.js';

/** The problems a string schema of `format` finds in `value`, as a refusal words them. */
function problemsOf(format: string, value: string): string[] {
  const check = callerValueAjv().compile({ type: 'string', format });
  return check(value) ? [] : describeSchemaErrors(check.errors).map((p) => p.problem);
}

describe('FORMAT_EXAMPLES', () => {
  describe.each(Object.entries(FORMAT_EXAMPLES))('%s', (format, { example }) => {
    it('is a format a schema may assert, and its example passes that format', () => {
      expect(Object.hasOwn(FORMATS, format)).toBe(true);
      expect(problemsOf(format, example)).toEqual([]);
    });

    it("is shown in the format's refusal", () => {
      expect(problemsOf(format, 'not valid ^')).toEqual([expect.stringContaining(`must be a valid ${format}, such as ${JSON.stringify(example)}`)]);
    });
  });

  it('says what the example alone does not tell, and leaves a format without an entry at its name', () => {
    expect(problemsOf('date-time', '2026-07-28T09:00:00')).toEqual(['must be a valid date-time, such as "2026-07-28T09:00:00Z" (RFC 3339, with a time zone)']);
    expect(problemsOf('date', '12/07/2026')).toEqual(['must be a valid date, such as "2026-07-28"']);
    expect(formatProblem('json-pointer')).toBe('must be a valid json-pointer');
    // A name that is a property of every object is no entry.
    expect(formatProblem('constructor')).toBe('must be a valid constructor');
  });
});

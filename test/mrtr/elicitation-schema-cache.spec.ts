import { describe, expect, it } from '@jest/globals';

import { ElicitationSchemaCache } from '../../lib/mrtr/elicitation-schema-cache.js';
import { collectGarbageUntil } from '../support/collect-garbage.js';

const schema = (n: number) => ({ type: 'object', properties: { [`f${n}`]: { type: 'string', format: 'email' } }, required: [`f${n}`] });

describe('ElicitationSchemaCache', () => {
  it('compiles a schema once and reuses it for the same JSON', () => {
    const cache = new ElicitationSchemaCache();
    const validate = cache.validator(schema(1));
    expect(cache.validator(JSON.parse(JSON.stringify(schema(1))))).toBe(validate);
    expect(validate({ f1: 'ada@example.com' })).toBe(true);
    expect(validate({ f1: 'not an email' })).toBe(false);
    expect(cache.size).toBe(1);
  });

  it('keeps at most its bound, evicting the least recently used', () => {
    const cache = new ElicitationSchemaCache(3);
    const first = cache.validator(schema(1));
    cache.validator(schema(2));
    cache.validator(schema(3));
    expect(cache.validator(schema(1))).toBe(first); // now the most recent
    cache.validator(schema(4)); // evicts schema 2
    expect(cache.size).toBe(3);
    expect(cache.validator(schema(1))).toBe(first);
    for (let n = 5; n < 50; n++) cache.validator(schema(n));
    expect(cache.size).toBe(3);
  });

  it('compiles distinct forms that share an $id, each standing alone', () => {
    const cache = new ElicitationSchemaCache();
    const form = (choices: string[]) => ({ $id: 'https://example.com/pick', type: 'object', properties: { pick: { type: 'string', enum: choices } } });
    // On one shared ajv instance the second threw: schema with key or id "https://example.com/pick" already exists.
    const [first, second] = [cache.validator(form(['a', 'b'])), cache.validator(form(['c', 'd']))];
    expect([first({ pick: 'a' }), first({ pick: 'c' }), second({ pick: 'c' }), second({ pick: 'a' })]).toEqual([true, false, true, false]);
  });

  it('frees the validators it evicted', async () => {
    const cache = new ElicitationSchemaCache(3);
    const compiled = Array.from({ length: 20 }, (_, n) => new WeakRef(cache.validator(schema(n))));
    await collectGarbageUntil(() => compiled.filter((validator) => validator.deref() !== undefined).length <= 3, 'the evicted validators to be collected');
    // One ajv instance shared by every schema kept all 20 (ajv does not free a compiled schema on removeSchema).
    expect(compiled.filter((validator) => validator.deref() !== undefined)).toHaveLength(3);
    expect(compiled.slice(-3).every((validator) => validator.deref() !== undefined)).toBe(true);
  });

  it('keeps a validator handed out again over an older one, which it evicts (only what it keeps outlives a collection)', async () => {
    const cache = new ElicitationSchemaCache(3);
    const [used, unused] = [new WeakRef(cache.validator(schema(101))), new WeakRef(cache.validator(schema(102)))];
    cache.validator(schema(103));
    cache.validator(schema(101)); // now the most recent
    cache.validator(schema(104)); // evicts schema 102
    await collectGarbageUntil(() => unused.deref() === undefined, 'the evicted validator to be collected');
    expect([used.deref() !== undefined, unused.deref() !== undefined]).toEqual([true, false]);
  });

  it('reads a field named like a member every object inherits from the answer itself, not its prototype', () => {
    const validate = new ElicitationSchemaCache().validator({
      type: 'object',
      properties: { constructor: { type: 'string' }, toString: { type: 'string' } },
      required: ['toString'],
    });
    expect(validate({ toString: 'x' })).toBe(true);
    expect(validate({})).toBe(false);
    expect(validate.errors).toMatchObject([{ keyword: 'required', params: { missingProperty: 'toString' } }]);
  });

  it.each([
    [
      'declares $async (its validator would answer with a promise, read as a pass)',
      { $async: true, type: 'object', properties: { ok: { type: 'boolean' } } },
      /^declares "\$async"/,
    ],
    [
      'has a field named __proto__ (ajv never checks its value)',
      JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
      /^declares a property named "__proto__" \(at #\/properties\)/,
    ],
    [
      'recurses without end',
      { type: 'object', properties: { ok: { type: 'boolean' } }, allOf: [{ $ref: '#' }] },
      /^recurses without end: \$ref "#" \(at #\/allOf\/0\) leads back to # /,
    ],
    ['is of another dialect', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} }, /draft-07/],
  ])('refuses a form that %s, as module init refuses a tool schema, naming the offence alone', (_case, form, offence) => {
    const cache = new ElicitationSchemaCache();
    expect(() => cache.validator(form)).toThrow(offence);
    expect(cache.size).toBe(0);
  });

  it('checks uniqueItems in time linear in the list, whatever a client answers', () => {
    const validate = new ElicitationSchemaCache().validator({ type: 'object', properties: { picks: { type: 'array', uniqueItems: true } } });
    const picks = Array.from({ length: 100_000 }, (_, i) => ({ pick: i }));
    const started = performance.now();
    expect(validate({ picks })).toBe(true);
    // Compared pair by pair, this list took minutes.
    expect(performance.now() - started).toBeLessThan(20_000); // it read 2.5 s once under a loaded CI (2 s was the bound)
    expect(
      validate({
        picks: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      }),
    ).toBe(false);
  });
});

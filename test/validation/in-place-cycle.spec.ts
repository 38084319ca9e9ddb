import { describe, expect, it } from '@jest/globals';

import { callerValueAjv } from '../../lib/validation/caller-value-ajv.js';
import { IN_PLACE_APPLICATORS } from '../../lib/validation/in-place-cycle.js';
import { ALSO_APPLIED, SCHEMA_APPLICATORS } from '../../lib/validation/schema-applicators.js';
import { SchemaCompiler } from '../../lib/validation/schema-compiler.js';
import { schemaRefusal } from '../support/schema-refusal.js';

const compiler = new SchemaCompiler();
const refusal = (schema: unknown): string => schemaRefusal(compiler, schema);

const THROUGH = `through keywords that check the same value (${IN_PLACE_APPLICATORS.join(', ')}, $ref)`;
const ADVICE = 'so checking a value there would never finish; let the recursion pass through properties, items or another keyword that checks a part of the value';

/** A value that reaches every applicator of the schemas below: an object with `a`, nesting objects and a list. */
const VALUE = { a: { a: [{ a: 'x' }, 1] } };

/** What ajv alone makes of `schema` on {@link VALUE}: a validator that answers, or one that throws. */
const ajvAlone = (schema: object) => () => callerValueAjv().compile(schema)(VALUE);

/** One schema object at two places of a schema (as a shared constant is). */
const SHARED = { not: {}, $ref: '#/$defs/D' };

const APPLICATORS = [...SCHEMA_APPLICATORS, ...ALSO_APPLIED];
const IN_PLACE = APPLICATORS.filter(([keyword]) => IN_PLACE_APPLICATORS.includes(keyword));
const DESCENDING = APPLICATORS.filter(([keyword]) => !IN_PLACE_APPLICATORS.includes(keyword));

/**
 * A schema whose `$defs` entry D refers back to itself under `keyword`, held as that applicator holds subschemas,
 * beside what a conditional needs to be applied at all; the root is D.
 */
function recursingThrough(keyword: string, kind: 'one' | 'list' | 'map'): { schema: object; at: string } {
  const back = { $ref: '#/$defs/D' };
  const partner =
    keyword === 'if' ? { then: { $comment: 'checks nothing, yet is a keyword of ajv' } } : keyword === 'then' ? { if: {} } : keyword === 'else' ? { if: false } : {};
  const held = kind === 'one' ? back : kind === 'list' ? [back] : { a: back };
  return { schema: { $defs: { D: { ...partner, [keyword]: held } }, $ref: '#/$defs/D' }, at: `#/$defs/D/${keyword}${kind === 'one' ? '' : kind === 'list' ? '/0' : '/a'}` };
}

describe('a schema whose recursion never descends into the value', () => {
  it.each(IN_PLACE)('is refused at module init when it recurses through %s (ajv alone would overflow the stack on a value)', (keyword, kind) => {
    const { schema, at } = recursingThrough(keyword, kind);
    expect(ajvAlone(schema)).toThrow(RangeError);
    expect(refusal(schema)).toBe(`the schema: recurses without end: $ref "#/$defs/D" (at ${at}) leads back to #/$defs/D ${THROUGH}, ${ADVICE}`);
  });

  it.each(DESCENDING)('compiles when it recurses through %s, which checks a part of the value or nothing, and its validator answers', (keyword, kind) => {
    const { schema } = recursingThrough(keyword, kind);
    expect(ajvAlone(schema)).not.toThrow();
    expect(typeof compiler.compile(schema, 'the schema')(VALUE)).toBe('boolean');
  });

  it('is refused when it recurses through an if beside an else that is false (which ajv applies)', () => {
    const schema = { $defs: { D: { if: { $ref: '#/$defs/D' }, else: false } }, $ref: '#/$defs/D' };
    expect(ajvAlone(schema)).toThrow(RangeError);
    expect(refusal(schema)).toMatch(/^the schema: recurses without end: \$ref "#\/\$defs\/D" \(at #\/\$defs\/D\/if\) leads back to #\/\$defs\/D /);
  });

  it('is refused when its $ref names its own schema beside another keyword (bare or not), naming the $ref', () => {
    const beside = { type: 'object', $defs: { D: { not: { type: 'string' }, $ref: '#/$defs/D' } }, properties: { a: { $ref: '#/$defs/D' } } };
    expect(ajvAlone(beside)).toThrow(RangeError);
    expect(refusal(beside)).toBe(`the schema: recurses without end: $ref "#/$defs/D" (at #/$defs/D) leads back to #/$defs/D ${THROUGH}, ${ADVICE}`);
    // ajv overflows while building this one: the refusal says why instead.
    expect(refusal({ type: 'object', $defs: { D: { $ref: '#/$defs/D' } }, properties: { a: { $ref: '#/$defs/D' } } })).toMatch(
      /^the schema: recurses without end: \$ref "#\/\$defs\/D" \(at #\/\$defs\/D\)/,
    );
  });

  it('names every $ref of a cycle through several schemas, in order from where it starts, up to five', () => {
    const mutual = { $defs: { A: { anyOf: [{ $ref: '#/$defs/B' }] }, B: { allOf: [{ $ref: '#/$defs/A' }] } }, properties: { a: { $ref: '#/$defs/A' } } };
    expect(ajvAlone(mutual)).toThrow(RangeError);
    expect(refusal(mutual)).toBe(
      `the schema: recurses without end: $ref "#/$defs/B" (at #/$defs/A/anyOf/0), then $ref "#/$defs/A" (at #/$defs/B/allOf/0) lead back to #/$defs/A ${THROUGH}, ${ADVICE}`,
    );
    const seven = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`D${i}`, { allOf: [{ $ref: `#/$defs/D${(i + 1) % 7}` }] }]));
    // Entered from the root through an allOf: the root's own $ref leads into the cycle and is no part of it.
    const message = refusal({ $defs: seven, allOf: [{ $ref: '#/$defs/D0' }] });
    expect(message).toMatch(
      /^the schema: recurses without end: \$ref "#\/\$defs\/D1" \(at #\/\$defs\/D0\/allOf\/0\), then .* then \$ref "#\/\$defs\/D5" \(at #\/\$defs\/D4\/allOf\/0\), then 2 more lead back to #\/\$defs\/D0 /,
    );
  });

  it.each([
    ['an $anchor', { $defs: { D: { $anchor: 'd', not: { type: 'string' }, $ref: '#d' } }, properties: { a: { $ref: '#d' } } }, '#d', '#/$defs/D', '#/$defs/D'],
    ['a $dynamicAnchor, as a plain anchor', { $defs: { D: { $dynamicAnchor: 'm', not: {}, $ref: '#m' } }, $ref: '#/$defs/D' }, '#m', '#/$defs/D', '#/$defs/D'],
    ['a JSON pointer into properties', { properties: { a: { not: { type: 'string' }, $ref: '#/properties/a' } } }, '#/properties/a', '#/properties/a', '#/properties/a'],
    ['the root itself', { properties: { a: { type: 'string' } }, allOf: [{ $ref: '#' }] }, '#', '#/allOf/0', '#'],
    [
      "the root's own $id",
      { $id: 'https://example.com/s', $defs: { D: { not: {}, $ref: 'https://example.com/s#/$defs/D' } }, $ref: '#/$defs/D' },
      'https://example.com/s#/$defs/D',
      '#/$defs/D',
      '#/$defs/D',
    ],
    [
      "the root's own $id, without a fragment",
      { $id: 'https://example.com/s', type: 'object', allOf: [{ $ref: 'https://example.com/s' }] },
      'https://example.com/s',
      '#/allOf/0',
      '#',
    ],
    [
      "the root's own $id, with an empty fragment",
      { $id: 'https://example.com/s#', $defs: { D: { not: {}, $ref: 'https://example.com/s#/$defs/D' } }, $ref: '#/$defs/D' },
      'https://example.com/s#/$defs/D',
      '#/$defs/D',
      '#/$defs/D',
    ],
    [
      "the root's own $id, itself relative",
      { $id: 'schemas/tool.json', $defs: { D: { not: {}, $ref: 'tool.json#/$defs/D' } }, $ref: '#/$defs/D' },
      'tool.json#/$defs/D',
      '#/$defs/D',
      '#/$defs/D',
    ],
    [
      "the root's own $id, relative",
      { $id: 'https://example.com/s', $defs: { D: { not: {}, $ref: 's#/$defs/D' } }, $ref: '#/$defs/D' },
      's#/$defs/D',
      '#/$defs/D',
      '#/$defs/D',
    ],
    ['a percent-encoded $anchor', { $defs: { D: { $anchor: 'd', not: { type: 'string' }, $ref: '#%64' } }, $ref: '#/$defs/D' }, '#%64', '#/$defs/D', '#/$defs/D'],
    // Percent-decoded, then unescaped: %7E1 is ~1, which is /; ~01 is ~1, not /.
    ['a percent-encoded pointer escape', { $defs: { '/': { not: {}, $ref: '#/$defs/%7E1' } }, $ref: '#/$defs/~1' }, '#/$defs/%7E1', '#/$defs/~1', '#/$defs/~1'],
    ['a pointer escaping ~ before a 1', { $defs: { '~1': { not: {}, $ref: '#/$defs/~01' } }, $ref: '#/$defs/~01' }, '#/$defs/~01', '#/$defs/~01', '#/$defs/~01'],
    ['a JSON pointer into a keyword no applicator holds', { 'x-defs': { D: { not: {}, $ref: '#/x-defs/D' } }, $ref: '#/x-defs/D' }, '#/x-defs/D', '#/x-defs/D', '#/x-defs/D'],
    [
      'its own schema after a branch that leads nowhere (no part of the cycle)',
      { $defs: { B: { type: 'string' }, A: { allOf: [{ $ref: '#/$defs/B' }, { $ref: '#/$defs/A' }] } }, $ref: '#/$defs/A' },
      '#/$defs/A',
      '#/$defs/A/allOf/1',
      '#/$defs/A',
    ],
    ['a schema object placed twice, at its first place', { $defs: { D: SHARED }, properties: { a: SHARED } }, '#/$defs/D', '#/$defs/D', '#/$defs/D'],
  ])('follows a $ref naming %s', (_how, schema, ref, from, to) => {
    expect(ajvAlone(schema)).toThrow(RangeError);
    expect(refusal(schema)).toBe(`the schema: recurses without end: $ref ${JSON.stringify(ref)} (at ${from}) leads back to ${to} ${THROUGH}, ${ADVICE}`);
  });

  it.each([
    ['in a $defs entry nothing refers to', { type: 'object', $defs: { D: { not: {}, $ref: '#/$defs/D' } } }],
    ['in a definitions entry nothing refers to', { type: 'object', definitions: { D: { not: {}, $ref: '#/definitions/D' } } }],
    ['in a $defs entry only contentSchema (an annotation) refers to', { contentSchema: { $ref: '#/$defs/D' }, $defs: { D: { not: {}, $ref: '#/$defs/D' } } }],
    ['through an if without then or else (ajv passes it by)', { $defs: { D: { if: { $ref: '#/$defs/D' } } }, $ref: '#/$defs/D' }],
    [
      'through an if whose then and else check nothing (ajv passes it by)',
      { $defs: { D: { if: { $ref: '#/$defs/D' }, then: { title: 'T', 'x-note': 1 }, else: true } }, $ref: '#/$defs/D' },
    ],
    ['through a then without if (ajv passes it by)', { $defs: { D: { then: { $ref: '#/$defs/D' } } }, $ref: '#/$defs/D' }],
    [
      'through a recursion that descends beside unions and conditions',
      {
        $defs: {
          N: { anyOf: [{ required: ['a'] }, { type: 'array' }], if: { type: 'object' }, then: { properties: { a: { $ref: '#/$defs/N' } } }, items: { $ref: '#/$defs/N' } },
        },
        $ref: '#/$defs/N',
      },
    ],
  ])('compiles a cycle that ajv never applies or that descends: %s', (_how, schema) => {
    expect(ajvAlone(schema)).not.toThrow();
    expect(typeof compiler.compile(schema, 'the schema')(VALUE)).toBe('boolean');
  });

  it.each([
    ['$dynamicRef', { $id: 'https://example.com/s', $dynamicAnchor: 'm', type: 'object', allOf: [{ $dynamicRef: '#m' }] }],
    ['$recursiveRef', { type: 'object', allOf: [{ $recursiveRef: '#' }] }],
  ])('does not follow a %s, whose target is the dynamic scope’s: the schema compiles', (_keyword, schema) => {
    expect(() => compiler.compile(schema, 'the schema')).not.toThrow();
  });

  it('does not follow the $refs of a document whose subschema declares its own $id, against which they resolve', () => {
    // Inside D, "#/$defs/E" is D's own E (a string), not the root's E, which leads back to D.
    const scoped = {
      $defs: { E: { not: {}, $ref: '#/$defs/D' }, D: { $id: 'https://example.com/d', allOf: [{ $ref: '#/$defs/E' }], $defs: { E: { type: 'string' } } } },
      $ref: '#/$defs/D',
    };
    expect(ajvAlone(scoped)).not.toThrow();
    expect(compiler.compile(scoped, 'the schema')('x')).toBe(true);
  });
});

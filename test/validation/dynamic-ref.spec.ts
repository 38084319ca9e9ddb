import { describe, expect, it } from '@jest/globals';

import { callerValueAjv } from '../../lib/validation/caller-value-ajv.js';
import { SchemaCompiler } from '../../lib/validation/schema-compiler.js';
import { schemaRefusal } from '../support/schema-refusal.js';

const compiler = new SchemaCompiler();

/** A tree whose children refer back to the node schema through its dynamic anchor. */
const TREE = { $dynamicAnchor: 'node', type: 'object', properties: { kids: { type: 'array', items: { $dynamicRef: '#node' } } } };

describe('a $dynamicRef ajv would resolve to another schema than its target', () => {
  // Each value is valid as JSON Schema resolves the reference (as a $ref to its target); ajv alone refuses it.
  it.each([
    ['a JSON pointer', { type: 'object', properties: { a: { $dynamicRef: '#/$defs/S' } }, $defs: { S: { type: 'string' } } }, { a: 'x' }, '#/$defs/S', '#/properties/a'],
    ['an $anchor', { type: 'object', properties: { a: { $dynamicRef: '#s' } }, $defs: { S: { $anchor: 's', type: 'string' } } }, { a: 'x' }, '#s', '#/properties/a'],
    [
      'a $dynamicAnchor of a schema not around it',
      { type: 'object', properties: { a: { $dynamicRef: '#s' } }, $defs: { S: { $dynamicAnchor: 's', type: 'string' } } },
      { a: 'x' },
      '#s',
      '#/properties/a',
    ],
    [
      'a $dynamicAnchor of a sibling',
      { type: 'object', properties: { a: { $dynamicAnchor: 's', type: 'string' }, b: { $dynamicRef: '#s' } } },
      { b: 'x' },
      '#s',
      '#/properties/b',
    ],
  ])('is refused at module init when it names %s, which ajv alone mis-checks', (_what, schema, valid, ref, at) => {
    let ajvAnswer: unknown;
    try {
      ajvAnswer = callerValueAjv().compile(schema)(valid);
    } catch (thrown) {
      ajvAnswer = thrown;
    }
    expect(ajvAnswer).not.toBe(true);
    expect(schemaRefusal(compiler, schema)).toBe(
      `the schema: $dynamicRef ${JSON.stringify(ref)} (at ${at}) names no $dynamicAnchor of a schema around it, so ajv would check the value there against the whole schema it is validating (its root, or a $ref's target), not the one the reference names; write $ref for a JSON pointer or an $anchor, or declare the $dynamicAnchor on a schema around the reference`,
    );
  });

  it('is refused when it names the $dynamicAnchor beside it, whose schema it would apply again without end', () => {
    const schema = { type: 'object', properties: { a: { $dynamicAnchor: 's', type: 'string', $dynamicRef: '#s' } } };
    expect(() => callerValueAjv().compile(schema)({ a: 'x' })).toThrow(RangeError);
    expect(schemaRefusal(compiler, schema)).toMatch(/^the schema: \$dynamicRef "#s" \(at #\/properties\/a\) names no \$dynamicAnchor of a schema around it/);
  });

  it('leaves a $dynamicRef that is no fragment to ajv, which refuses it', () => {
    const schema = { $dynamicAnchor: 'node', type: 'object', properties: { a: { $dynamicRef: 'https://example.com/s#node' } } };
    expect(schemaRefusal(compiler, schema)).toMatch(/^the schema: is not a JSON Schema this server can build: .*only supports hash fragment reference/);
  });

  const VALID = { kids: [{ kids: [] }] };
  const INVALID = { kids: [1] };
  it.each([
    ['on the schema itself', TREE, VALID, INVALID],
    ['declared after the keywords that hold the reference', { properties: TREE.properties, type: 'object', $dynamicAnchor: 'node' }, VALID, INVALID],
    ['on a $defs entry the root refers to', { $ref: '#/$defs/tree', $defs: { tree: TREE } }, VALID, INVALID],
    ['on a property schema', { type: 'object', properties: { t: TREE } }, { t: VALID }, { t: INVALID }],
  ])('compiles one naming a $dynamicAnchor around it (%s), which ajv checks as JSON Schema says', (_where, schema, valid, invalid) => {
    const validate = compiler.compile(schema, 'the schema');
    expect([validate(valid), validate(invalid)]).toEqual([true, false]);
  });
});

import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';

import { McpAction, McpTool } from '../../lib/index.js';
import { callerValueAjv } from '../../lib/validation/caller-value-ajv.js';
import { misspelledKeywordWarnings, misspelledKeywords, NOT_ASSERTING } from '../../lib/validation/misspelled-keywords.js';
import { SCHEMA_APPLICATORS } from '../../lib/validation/schema-applicators.js';
import { SchemaCompiler } from '../../lib/validation/schema-compiler.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';

/** Every keyword the consumer-schema ajv knows, formats' own keywords included: the closed list the walk compares against. */
const KNOWN = Object.keys(callerValueAjv().RULES.keywords);
const found = (schema: unknown) => misspelledKeywords(schema, KNOWN).map(({ at, written, meant }) => `${at} ${written} -> ${meant}`);

describe('keys that are a near miss of an asserting keyword', () => {
  // One case per keyword ajv knows: the same name in capitals is no keyword (ajv is case-sensitive), so it is
  // reported as that keyword exactly when the keyword asserts something.
  it.each(KNOWN)('classifies %s', (keyword) => {
    const written = keyword.toUpperCase();
    expect(KNOWN).not.toContain(written);
    expect(found({ type: 'object', [written]: 1 })).toEqual(NOT_ASSERTING.has(keyword) ? [] : [`# ${written} -> ${keyword}`]);
  });

  it('holds as not asserting exactly the identifiers, annotations, content hints and default, all known to ajv', () => {
    const stated = ['$schema', '$id', 'id', '$vocabulary', '$comment', '$dynamicAnchor', '$recursiveAnchor', '$defs', 'definitions', '$async'];
    const annotations = ['title', 'description', 'deprecated', 'readOnly', 'writeOnly', 'examples', 'contentMediaType', 'contentEncoding', 'contentSchema', 'default'];
    expect([...NOT_ASSERTING].sort()).toEqual([...stated, ...annotations].sort());
    expect([...NOT_ASSERTING].filter((keyword) => !KNOWN.includes(keyword))).toEqual([]);
  });

  it.each([
    ['requierd', 'required'],
    ['requried', 'required'],
    ['minLenght', 'minLength'],
    ['maxlength', 'maxLength'],
    ['max_length', 'maxLength'],
    ['additionalproperties', 'additionalProperties'],
    ['minimun', 'minimum'],
    ['propertes', 'properties'],
    ['itmes', 'items'],
    ['tpye', 'type'],
    ['fromat', 'format'],
    ['Not', 'not'],
  ])('reports %s as %s', (written, meant) => {
    expect(found({ type: 'object', [written]: 1 })).toEqual([`# ${written} -> ${meant}`]);
  });

  // Words one slip from a short keyword, and names nearest an annotation: none is reported.
  it.each([
    'note',
    'knot',
    'when',
    'than',
    'them',
    'allow',
    'cost',
    'href',
    'typo',
    'tpyo',
    'nto',
    'typed',
    'enun',
    'formal',
    'multiple',
    'isRequired',
    '$def',
    'example',
    'comment',
    'defualt',
  ])('leaves %s alone', (written) => {
    expect(found({ type: 'object', [written]: 1 })).toEqual([]);
  });

  it('reads subschemas where JSON Schema 2020-12 holds them: one, a list or a map', () => {
    expect(Object.fromEntries(SCHEMA_APPLICATORS)).toEqual({
      additionalProperties: 'one',
      items: 'one',
      not: 'one',
      if: 'one',
      then: 'one',
      else: 'one',
      contains: 'one',
      propertyNames: 'one',
      unevaluatedItems: 'one',
      unevaluatedProperties: 'one',
      contentSchema: 'one',
      allOf: 'list',
      anyOf: 'list',
      oneOf: 'list',
      prefixItems: 'list',
      properties: 'map',
      patternProperties: 'map',
      $defs: 'map',
      definitions: 'map',
      dependentSchemas: 'map',
    });
  });

  // One case per applicator: a misspelling in the subschema it holds is found there, but for contentSchema, which
  // only annotates (ajv checks nothing in it).
  it.each([...SCHEMA_APPLICATORS, ['dependencies', 'map'] as const])('reads below %s (%s)', (keyword, kind) => {
    const below = { maxlenght: 1 };
    const held = kind === 'one' ? below : kind === 'list' ? [below] : { a: below };
    const at = kind === 'one' ? `#/${keyword}` : kind === 'list' ? `#/${keyword}/0` : `#/${keyword}/a`;
    expect(found({ [keyword]: held })).toEqual(keyword === 'contentSchema' ? [] : [`${at} maxlenght -> maxLength`]);
  });

  it('names nested places whole', () => {
    const schema = { type: 'object', properties: { tags: { type: 'array', items: { anyOf: [{ type: 'string', minLenght: 1 }] } } } };
    expect(found(schema)).toEqual(['#/properties/tags/items/anyOf/0 minLenght -> minLength']);
  });

  it('leaves alone property names, values, vendor keys, annotations and what is near no asserting keyword', () => {
    const schema = {
      type: 'object',
      properties: { requierd: { type: 'string', default: { maxlength: 1 }, examples: [{ tpye: 1 }] }, maxlength: true },
      required: ['requierd'],
      enum: [{ itmes: 1 }],
      const: { fromat: 1 },
      'x-required': true,
      'X-Minimum': 1,
      example: 'a',
      comment: 'near $comment, an annotation',
      descripton: 'near description, an annotation',
      readonly: true,
      enumNames: ['A'],
      nullable: true,
      widget: 'select',
      ID: 'an identifier in capitals',
      ref: 'short and no keyword',
    };
    expect(found(schema)).toEqual([]);
  });
});

describe('the schema compiler warns of each near miss once', () => {
  let warn: jest.SpiedFunction<Logger['warn']>;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('warns at compile time, naming the declaration, the place and the keyword meant; the schema still compiles', () => {
    const compiler = new SchemaCompiler();
    const schema = { type: 'object', properties: { code: { type: 'string', maxlenght: 4 } } };
    const validate = compiler.compile(schema, 'tool "codes", inputSchema');
    expect(validate({ code: 'longer than four' })).toBe(true);
    const message =
      'tool "codes", inputSchema: "maxlenght" at #/properties/code is not a JSON Schema keyword, so nothing checks it; did you mean "maxLength"? (prefix it with x- if it is yours)';
    expect(warn.mock.calls).toEqual([[message]]);
    compiler.compile(JSON.parse(JSON.stringify(schema)), 'tool "codes2", inputSchema');
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('warns of the first ten one by one, then counts the rest (docs/tools.md)', () => {
    const many = (count: number) => Array.from({ length: count }, (_, i) => ({ at: `#/properties/p${i}`, written: 'maxlength', meant: 'maxLength' }));
    const lines = misspelledKeywordWarnings('tool "wide"', many(12));
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(/^tool "wide": "maxlength" at #\/properties\/p0 /);
    expect(lines[9]).toMatch(/^tool "wide": "maxlength" at #\/properties\/p9 /);
    expect(lines.at(-1)).toBe('tool "wide": 2 more keys are near misses of JSON Schema keywords');
    const ten = misspelledKeywordWarnings('tool "wide"', many(10));
    expect(ten).toHaveLength(10);
    expect(ten.at(-1)).toMatch(/^tool "wide": "maxlength" at #\/properties\/p9 /);
  });

  it('stays quiet for a schema without one', () => {
    new SchemaCompiler().compile({ type: 'object', properties: { code: { type: 'string', maxLength: 5, 'x-hint': 'five' } } }, 'quiet');
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns while a real app starts, for a plain tool and an action, and the app serves as before', async () => {
    @McpTool({
      name: 'lookup',
      description: 'Looks a code up',
      inputSchema: { type: 'object', properties: { code: { type: 'string', minLenght: 2 } }, requierd: ['code'] },
    })
    class LookupTool {
      run(args: { code?: string }) {
        return { code: args.code ?? null };
      }
    }
    @McpTool({ name: 'stock', description: 'Stock levels' })
    class StockTool {
      @McpAction({ description: 'Set a level', properties: { level: { type: 'integer', minimun: 0 } }, required: ['level'] })
      set(args: { level: number }) {
        return { level: args.level };
      }
    }
    const app = await createTestApp({ providers: [LookupTool, StockTool] });
    try {
      const warned = warn.mock.calls.map(([message]) => message);
      expect(warned).toEqual(
        expect.arrayContaining([
          'tool "lookup", inputSchema: "minLenght" at #/properties/code is not a JSON Schema keyword, so nothing checks it; did you mean "minLength"? (prefix it with x- if it is yours)',
          'tool "lookup", inputSchema: "requierd" at # is not a JSON Schema keyword, so nothing checks it; did you mean "required"? (prefix it with x- if it is yours)',
          'tool "stock", action "set", properties: "minimun" at #/properties/level is not a JSON Schema keyword, so nothing checks it; did you mean "minimum"? (prefix it with x- if it is yours)',
        ]),
      );
      const called = await post(app.server, rpc('tools/call', { name: 'lookup', arguments: {} }));
      expect(called.body.result.isError).toBeFalsy();
      expect(JSON.parse(called.body.result.content[0].text)).toEqual({ code: null });
    } finally {
      await app.close();
    }
  });
});

import { describe, expect, it } from '@jest/globals';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { formatLimitDefinition } from 'ajv-formats/dist/limit.js';
import { z } from 'zod';

import { REFUSED_FORMATS } from '../../lib/validation/add-formats.js';
import { jsonValueOffence } from '../../lib/validation/json-value.js';
import { DETAILED_CHECK_MAX_ERRORS, cappedCheck } from '../../lib/validation/linear-errors.js';
import { SchemaCompiler, UNKNOWN_FORMATS_NAMED } from '../../lib/validation/schema-compiler.js';
import { collectGarbage } from '../support/collect-garbage.js';
import { schemaRefusal } from '../support/schema-refusal.js';

const compiler = new SchemaCompiler();
const refusal = (schema: unknown): string => schemaRefusal(compiler, schema);

describe('compiling consumer schemas at module init', () => {
  it('asserts formats: a known one validates, an unknown one is refused naming it', () => {
    const validate = compiler.compile({ type: 'string', format: 'uuid' }, 'ok');
    expect(validate('not-a-uuid')).toBe(false);
    expect(refusal({ type: 'string', format: 'colour' })).toMatch(/unknown format "colour"/);
  });

  it('refuses a property named __proto__, at any depth, naming where: ajv skips it, so a value sent there would pass unchecked', () => {
    // JSON.parse, as a computed key would be: a literal `__proto__` key sets the prototype instead.
    const nested = JSON.parse('{"type":"object","properties":{"a":{"type":"object","properties":{"__proto__":{"type":"string"}}}}}');
    expect(refusal(nested)).toBe(
      'the schema: declares a property named "__proto__" (at #/properties/a/properties), whose value ajv never checks (it skips that name), so whatever a caller sent there would pass: rename the property',
    );
    expect(refusal({ type: 'object', properties: { ['__proto__']: { type: 'string' } } })).toMatch(/^the schema: declares a property named "__proto__" \(at #\/properties\)/);
    // The name elsewhere is no property: an enum value, a required entry beside a pattern that admits it.
    expect(compiler.compile({ type: 'object', properties: { kind: { enum: ['__proto__', 'x'] } } }, 'ok')({ kind: 'x' })).toBe(true);
    expect(compiler.compile({ type: 'object', patternProperties: { '^_': {} }, required: ['__proto__'] }, 'ok')(JSON.parse('{}'))).toBe(false);
  });

  it.each(Object.keys(REFUSED_FORMATS))('refuses the format %s, saying why, and leaves it out of the known formats', (format) => {
    expect(refusal({ type: 'string', format })).toBe(`the schema: uses the format "${format}", which this server refuses: ${REFUSED_FORMATS[format]}`);
    const known = /; known: (.*)$/.exec(refusal({ type: 'string', format: 'colour' }))![1]!.split(', ');
    expect(known).toContain('uri');
    expect(known).not.toContain(format);
  });

  // One cell per keyword ajv-formats adds (closed by its own definition): each bounds a date as its name says.
  it.each(formatLimitDefinition.keyword as string[])('asserts %s on a date', (keyword) => {
    const validate = compiler.compile({ type: 'string', format: 'date', [keyword]: '2020-01-01' }, keyword);
    const upper = keyword.includes('Maximum');
    const exclusive = keyword.includes('Exclusive');
    expect(validate(upper ? '2030-01-01' : '2000-01-01')).toBe(false);
    expect(validate(upper ? '2000-01-01' : '2030-01-01')).toBe(true);
    expect(validate('2020-01-01')).toBe(exclusive ? false : true);
  });

  it('names every unknown format of a schema at once, each once, an empty name included, and lists the known ones sorted', () => {
    const message = refusal({
      type: 'object',
      properties: { a: { type: 'string', format: 'first' }, b: { type: 'string', format: 'second' }, c: { type: 'string', format: 'first' } },
    });
    expect(message).toMatch(
      /^the schema: uses the unknown formats "first", "second" \(formats are asserted, so an unknown one is refused\): remove them, or check the value with a "pattern" \(zod writes one beside most of its formats: drop the format in z\.toJSONSchema's override\); known: /,
    );
    const known = /; known: (.*)$/.exec(message)![1]!.split(', ');
    expect(known).toEqual([...known].sort());
    expect(refusal({ type: 'string', format: '' })).toMatch(/^the schema: uses the unknown format "" \(/);
  });

  it(`names at most ${UNKNOWN_FORMATS_NAMED} unknown formats and counts the rest`, () => {
    const properties = Object.fromEntries(Array.from({ length: UNKNOWN_FORMATS_NAMED + 3 }, (_, i) => [`p${i}`, { type: 'string', format: `f${i}` }]));
    const named = Array.from({ length: UNKNOWN_FORMATS_NAMED }, (_, i) => `"f${i}"`).join(', ');
    expect(refusal({ type: 'object', properties })).toMatch(new RegExp(`^the schema: uses the unknown formats ${named}, and 3 more \\(formats are asserted`));
  });

  it('names a format it refuses, with why, before unknown ones', () => {
    expect(refusal({ type: 'object', properties: { a: { type: 'string', format: 'colour' }, b: { type: 'string', format: 'url' } } })).toMatch(
      /^the schema: uses the format "url", which this server refuses: its check takes time quadratic/,
    );
  });

  it("knows every other format of ajv-formats' full set", () => {
    const others = Object.keys(fullFormats).filter((format) => !Object.hasOwn(REFUSED_FORMATS, format));
    expect(others.length).toBeGreaterThan(20);
    for (const format of others) expect(typeof compiler.compile({ type: 'string', format }, format)).toBe('function');
  });

  it.each([
    ['a type naming no type (the precompiled meta-schema)', { type: 'strin' }, /can build: schema is invalid: #\/type must be equal to one of the allowed values/],
    ['a keyword of the wrong kind (the precompiled meta-schema)', { type: 'object', required: 'name' }, /schema is invalid: #\/required must be array/],
    ['a $ref to a location the schema does not hold', { $ref: '#/$defs/missing' }, /can build/],
    ['a remote $ref, which is never fetched', { $ref: 'https://example.com/schema.json' }, /can build/],
    ['a RegExp where a pattern string belongs', { type: 'string', pattern: /x/ }, /RegExp is not a JSON value/],
    ['a Map where properties belong', { type: 'object', properties: new Map() }, /Map is not a JSON value/],
    ['a symbol key', { type: 'object', properties: { [Symbol('k')]: {} } }, /is not a string/],
    ['another dialect', { $schema: 'http://json-schema.org/draft-07/schema#' }, /unsupported JSON Schema dialect/],
  ])('refuses %s', (_what, schema, message) => {
    expect(refusal(schema)).toMatch(message);
  });

  it.each([
    ['a list', [], 'the schema: must be a JSON Schema object, got []'],
    ['a string', 'object', 'the schema: must be a JSON Schema object, got "object"'],
    [
      'another dialect, its name bounded',
      { $schema: 'x'.repeat(300) },
      `the schema: declares the unsupported JSON Schema dialect ${'x'.repeat(99)}…; only 2020-12 is supported ("$schema": "https://json-schema.org/draft/2020-12/schema", or none)`,
    ],
    [
      "2020-12's URI over http:, which names no dialect ajv knows",
      { $schema: 'http://json-schema.org/draft/2020-12/schema' },
      'the schema: declares the unsupported JSON Schema dialect http://json-schema.org/draft/2020-12/schema; only 2020-12 is supported ("$schema": "https://json-schema.org/draft/2020-12/schema", or none)',
    ],
    [
      "another dialect in a property (a converter's output for that property alone)",
      { type: 'object', properties: { when: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' } } },
      'the schema: declares the unsupported JSON Schema dialect http://json-schema.org/draft-07/schema# at #/properties/when; only 2020-12 is supported ("$schema": "https://json-schema.org/draft/2020-12/schema", or none)' +
        ": from a converter, zod 4's z.toJSONSchema() writes 2020-12, and Valibot's toJsonSchema takes { target: 'draft-2020-12' }",
    ],
    [
      'another dialect deep in a list applicator, inside a resource of its own',
      { anyOf: [{ type: 'string' }, { items: { $id: 'https://example.com/n', $schema: 'https://json-schema.org/draft/2019-09/schema' } }] },
      'the schema: declares the unsupported JSON Schema dialect https://json-schema.org/draft/2019-09/schema at #/anyOf/1/items; only 2020-12 is supported ("$schema": "https://json-schema.org/draft/2020-12/schema", or none)',
    ],
  ])('refuses %s, saying so', (_what, schema, message) => {
    expect(refusal(schema)).toBe(message);
  });

  it('builds a schema whose properties each name 2020-12 (a converter run on each property alone)', () => {
    const $schema = 'https://json-schema.org/draft/2020-12/schema';
    const validate = compiler.compile({ type: 'object', properties: { n: { $schema, type: 'integer' }, s: { $schema, type: 'string' } } }, 'the schema');
    expect([validate({ n: 1, s: 'a' }), validate({ n: 'x' })]).toEqual([true, false]);
  });

  it.each(['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#'])(
    'builds a schema whose $schema names 2020-12 as %s (the empty fragment of earlier drafts allowed)',
    ($schema) => {
      const validate = compiler.compile({ $schema, type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] }, 'the schema');
      expect([validate({ n: 1 }), validate({ n: 0 }), validate({})]).toEqual([true, false, false]);
    },
  );

  it('names each place that breaks the meta-schema once, though the meta-schema reaches it several ways', () => {
    expect(refusal({ type: 'object', properties: { a: 5, b: 5, c: 5 } })).toBe(
      'the schema: is not a JSON Schema this server can build: schema is invalid: #/properties/a must be object,boolean, #/properties/b must be object,boolean, #/properties/c must be object,boolean',
    );
  });

  it.each([
    ["the meta-schema's problems", { type: 'object', properties: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, 5])) }, 'schema is invalid: '],
    ["ajv's own refusal", { $ref: `#/$defs/${'x'.repeat(400)}` }, 'can build: '],
  ])('bounds %s to 300 characters', (_what, schema, before) => {
    const message = refusal(schema);
    const quoted = message.slice(message.indexOf(before) + before.length);
    expect(quoted).toHaveLength(300);
    expect(quoted.endsWith('…')).toBe(true);
  });

  it('compiles the checks of two schemas sharing a root $id apart: neither is kept in a registry for the other to meet', () => {
    const ids = compiler.compileCheck({ $id: 'https://example.com/list', type: 'array', items: { type: 'integer' } }, 'ids');
    const names = compiler.compileCheck({ $id: 'https://example.com/list', type: 'array', items: { type: 'string' } }, 'names');
    expect(ids(['a'])?.errors.map((e) => e.instancePath)).toEqual(['/0']);
    expect(names(['a'])).toBeUndefined();
  });
});

describe('a compiled validator and the error cap', () => {
  it(`collects every error outside a capped check, also after one stopped at ${DETAILED_CHECK_MAX_ERRORS} errors`, () => {
    const validate = compiler.compile({ type: 'array', items: { type: 'integer' } }, 'ids');
    const value = Array.from({ length: DETAILED_CHECK_MAX_ERRORS + 500 }, () => 'x');
    expect(cappedCheck(validate, value)).toBe('too_many');
    expect(validate(value)).toBe(false);
    expect(validate.errors).toHaveLength(DETAILED_CHECK_MAX_ERRORS + 500);
  });
});

describe('compiling an identical schema again', () => {
  it('shares one validator across compilers, whatever object spells the schema', () => {
    const schema = { type: 'object', properties: { id: { type: 'integer' }, mail: { type: 'string', format: 'email' } } };
    expect(new SchemaCompiler().compile(schema, 'a')).toBe(new SchemaCompiler().compile(JSON.parse(JSON.stringify(schema)), 'b'));
    expect(new SchemaCompiler().compileCheck(schema, 'a')).toBe(new SchemaCompiler().compileCheck(JSON.parse(JSON.stringify(schema)), 'b'));
    const unbounded = { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } };
    expect(new SchemaCompiler().compileCheck(unbounded, 'a')).toBe(new SchemaCompiler().compileCheck(JSON.parse(JSON.stringify(unbounded)), 'b'));
  });

  it('lets a validator and a check go once nothing holds them (an application that compiled them closed)', async () => {
    const compiled = Array.from({ length: 5 }, (_, n) => {
      const schema = { type: 'object', properties: { [`gone_${n}`]: { type: 'string', format: 'email' } } };
      const compiler = new SchemaCompiler();
      return [new WeakRef(compiler.compile(schema, 'a')), new WeakRef(compiler.compileCheck(schema, 'a'))];
    }).flat();
    await collectGarbage();
    // A process-wide cache that held them strongly kept every schema any application ever compiled.
    expect(compiled.filter((kept) => kept.deref() !== undefined)).toEqual([]);
  });

  it('refuses a bad schema every time: a refusal is never remembered as a validator', () => {
    const schema = { type: 'string', format: 'nope' };
    expect(refusal(schema)).toMatch(/unknown format "nope"/);
    expect(refusal(JSON.parse(JSON.stringify(schema)))).toMatch(/unknown format "nope"/);
  });
});

describe('the JSON-value check', () => {
  it.each([
    ['undefined', { a: undefined }, 'undefined'],
    ['a function', { a: () => 1 }, 'a function'],
    ['a symbol', { a: Symbol('s') }, 'a symbol'],
    ['a BigInt', { a: 1n }, 'a BigInt'],
    ['a non-finite number', { a: Number.POSITIVE_INFINITY }, 'Infinity'],
    ['a Date', { a: new Date(0) }, 'a Date'],
    ['an object whose prototype has no constructor', { a: Object.create(Object.create(null) as object) as object }, 'an object with a foreign prototype'],
  ])('names %s with its path', (_what, value, named) => {
    expect(jsonValueOffence(value)).toBe(`at #/a: ${named} is not a JSON value`);
  });

  it('names a symbol key, and spells a key holding "/" or "~" escaped in the path', () => {
    expect(jsonValueOffence({ properties: { [Symbol('k')]: {} } })).toBe('at #/properties: the key Symbol(k) is not a string (JSON object keys are strings)');
    expect(jsonValueOffence({ 'a/b': { '~x': undefined } })).toBe('at #/a~1b/~0x: undefined is not a JSON value');
  });

  it('names the path of an offence met after other branches were walked, not theirs', () => {
    expect(jsonValueOffence({ a: { b: [1, { c: 2 }] }, d: [0, { e: () => 1 }] }, ['properties'])).toBe('at #/properties/d/1/e: a function is not a JSON value');
  });

  it('names a cycle', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(jsonValueOffence(cyclic)).toBe('at #/self: the value contains itself (a cycle is not a JSON value)');
  });

  it('accepts JSON values, shared (non-cyclic) references included', () => {
    const shared = { x: 1 };
    expect(jsonValueOffence({ a: [1, 'two', null, true, { b: shared }], c: shared, d: Object.create(null) })).toBeUndefined();
  });
});

describe("zod's own formats and the override recipe docs/tools.md gives", () => {
  const Code = z.object({ ref: z.string().startsWith('ab').includes('q').endsWith('z'), id: z.cuid(), colour: z.hex() });
  // Drops a format with a pattern beside it, or in the allOf zod writes when a string has several such checks.
  const override = ({ jsonSchema }: { jsonSchema: { format?: string; pattern?: string; allOf?: { pattern?: string }[] } }) => {
    if (jsonSchema.pattern !== undefined || jsonSchema.allOf?.some((member) => member.pattern !== undefined)) delete jsonSchema.format;
  };

  it('refuses them as zod writes them, each named', () => {
    expect(refusal(z.toJSONSchema(Code, { io: 'input' }))).toMatch(/^the schema: uses the unknown formats "ends_with", "cuid", "hex" \(/);
  });

  it('compiles the recipe’s schema, whose patterns still check each value', () => {
    const check = compiler.compileCheck(z.toJSONSchema(Code, { io: 'input', override }), 'the schema');
    expect(check({ ref: 'abqz', id: 'cjld2cjxh0000qzrmn831i7rn', colour: 'ff00aa' })).toBeUndefined();
    expect(check({ ref: 'abz', id: 'cjld2cjxh0000qzrmn831i7rn', colour: 'ff00aa' })?.errors.map((error) => error.instancePath)).toEqual(['/ref']);
    expect(check({ ref: 'abqz', id: 'Xjld', colour: 'red' })?.errors.map((error) => error.instancePath)).toEqual(['/id', '/colour']);
  });
});

describe('SchemaCompiler.compileOutput', () => {
  const recursive = () => ({ type: 'object', properties: { kid: { $ref: '#' }, name: { type: 'string' } } });

  it('compiles a first-problem validator for a schema holding a $ref, once per schema text, and none for one without', () => {
    const [a, b] = [new SchemaCompiler().compileOutput(recursive(), 'a'), new SchemaCompiler().compileOutput(recursive(), 'b')];
    expect(a.first).toBeInstanceOf(Function);
    expect(b.first).toBe(a.first);
    expect(a.first!({ kid: { name: 1 } })).toBe(false);
    expect(a.first!({ kid: { name: 'x' } })).toBe(true);
    expect(new SchemaCompiler().compileOutput({ type: 'object', properties: { name: { type: 'string' } } }, 'c').first).toBeUndefined();
  });
});

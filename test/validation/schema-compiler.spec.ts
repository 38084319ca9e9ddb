import { describe, expect, it } from '@jest/globals';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { formatLimitDefinition } from 'ajv-formats/dist/limit.js';

import { McpConfigurationError } from '../../lib/index.js';
import { REFUSED_FORMATS } from '../../lib/validation/add-formats.js';
import { jsonValueOffence } from '../../lib/validation/json-value.js';
import { SchemaCompiler } from '../../lib/validation/schema-compiler.js';
import { collectGarbage } from '../support/collect-garbage.js';

const compiler = new SchemaCompiler();
const refusal = (schema: unknown): string => {
  try {
    compiler.compile(schema, 'the schema');
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(McpConfigurationError);
    return (thrown as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('compiling consumer schemas at module init', () => {
  it('asserts formats: a known one validates, an unknown one is refused naming it', () => {
    const validate = compiler.compile({ type: 'string', format: 'uuid' }, 'ok');
    expect(validate('not-a-uuid')).toBe(false);
    expect(refusal({ type: 'string', format: 'colour' })).toMatch(/unknown format "colour"/);
  });

  it.each(Object.keys(REFUSED_FORMATS))('refuses the format %s, saying why, and leaves it out of the known formats', (format) => {
    expect(refusal({ type: 'string', format })).toBe(`the schema: uses the format "${format}", which this server refuses: ${REFUSED_FORMATS[format]}`);
    const known = /known: ([^)]*)\)/.exec(refusal({ type: 'string', format: 'colour' }))![1]!.split(', ');
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

  it("knows every other format of ajv-formats' full set", () => {
    const others = Object.keys(fullFormats).filter((format) => !Object.hasOwn(REFUSED_FORMATS, format));
    expect(others.length).toBeGreaterThan(20);
    for (const format of others) expect(typeof compiler.compile({ type: 'string', format }, format)).toBe('function');
  });

  it.each([
    ['a type naming no type (the precompiled meta-schema)', { type: 'strin' }, /can build: schema is invalid: data\/type must be equal to one of the allowed values/],
    ['a keyword of the wrong kind (the precompiled meta-schema)', { type: 'object', required: 'name' }, /schema is invalid: data\/required must be array/],
    ['a $ref to a location the schema does not hold', { $ref: '#/$defs/missing' }, /can build/],
    ['a remote $ref, which is never fetched', { $ref: 'https://example.com/schema.json' }, /can build/],
    ['a RegExp where a pattern string belongs', { type: 'string', pattern: /x/ }, /RegExp is not a JSON value/],
    ['a Map where properties belong', { type: 'object', properties: new Map() }, /Map is not a JSON value/],
    ['a symbol key', { type: 'object', properties: { [Symbol('k')]: {} } }, /is not a string/],
    ['another dialect', { $schema: 'http://json-schema.org/draft-07/schema#' }, /unsupported JSON Schema dialect/],
  ])('refuses %s', (_what, schema, message) => {
    expect(refusal(schema)).toMatch(message);
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
    ['undefined', { a: undefined }],
    ['a function', { a: () => 1 }],
    ['a BigInt', { a: 1n }],
    ['a non-finite number', { a: Number.POSITIVE_INFINITY }],
    ['a Date', { a: new Date(0) }],
  ])('names %s with its path', (_what, value) => {
    expect(jsonValueOffence(value)).toMatch(/^at #\/a: /);
  });

  it('names the path of an offence met after other branches were walked, not theirs', () => {
    expect(jsonValueOffence({ a: { b: [1, { c: 2 }] }, d: [0, { e: () => 1 }] }, ['properties'])).toBe('at #/properties/d/1/e: a function is not a JSON value');
  });

  it('names a cycle', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(jsonValueOffence(cyclic)).toMatch(/cycle/);
  });

  it('accepts JSON values, shared (non-cyclic) references included', () => {
    const shared = { x: 1 };
    expect(jsonValueOffence({ a: [1, 'two', null, true, { b: shared }], c: shared, d: Object.create(null) })).toBeUndefined();
  });
});

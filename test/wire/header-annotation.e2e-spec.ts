import { describe, expect, it } from '@jest/globals';

import { McpConfigurationError, McpTool, type McpPlainTool } from '../../lib/index.js';
import { closeSchema } from '../../lib/tools/key-set.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';

/** A plain tool named `annotated` whose input schema is `inputSchema`. */
function toolWith(inputSchema: Record<string, unknown>) {
  @McpTool({ name: 'annotated', description: 'A tool whose input schema carries header annotations.', inputSchema })
  class AnnotatedTool implements McpPlainTool {
    run(): string {
      return 'ran';
    }
  }
  return AnnotatedTool;
}

const props = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
const UNSAFE = 2 ** 60;

/** Boots an app with the tool and returns what module init threw (undefined when it started). */
async function bootError(inputSchema: Record<string, unknown>): Promise<unknown> {
  try {
    const t = await createTestApp({ providers: [toolWith(inputSchema)] });
    await t.close();
    return undefined;
  } catch (thrown) {
    return thrown;
  }
}

describe('header annotations a tool declares are checked at module init', () => {
  it.each([
    ['an empty value', props({ region: { type: 'string', 'x-mcp-header': '' } }), 'properties/region', 'non-empty string'],
    ['a value that is not a string', props({ region: { type: 'string', 'x-mcp-header': 42 } }), 'properties/region', 'non-empty string'],
    ['a value with a space', props({ region: { type: 'string', 'x-mcp-header': 'Re gion' } }), 'properties/region', 'not an HTTP token'],
    ['a value with a colon', props({ region: { type: 'string', 'x-mcp-header': 'Re:gion' } }), 'properties/region', 'not an HTTP token'],
    ['a value with CR LF', props({ region: { type: 'string', 'x-mcp-header': 'Re\r\ngion' } }), 'properties/region', 'not an HTTP token'],
    ['a non-ASCII value', props({ region: { type: 'string', 'x-mcp-header': 'Régión' } }), 'properties/region', 'not an HTTP token'],
    [
      'a duplicate compared without case',
      props({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } }),
      'properties/b',
      'duplicates "Region"',
    ],
    [
      'an annotation in a dependentSchemas entry named like an instance keyword (a name there, not a keyword)',
      props({ a: { type: 'string' } }, { dependentSchemas: { const: { properties: { b: { type: 'string', 'x-mcp-header': 'B' } } } } }),
      'dependentSchemas/const/properties/b',
      'reachable from the root through "properties" keys only',
    ],
    ['a number property', props({ amount: { type: 'number', 'x-mcp-header': 'Amount' } }), 'properties/amount', 'got "number"'],
    ['an object property', props({ o: { type: 'object', 'x-mcp-header': 'O' } }), 'properties/o', 'got "object"'],
    ['an array property', props({ l: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'L' } }), 'properties/l', 'got "array"'],
    ['a null property', props({ n: { type: 'null', 'x-mcp-header': 'N' } }), 'properties/n', 'got "null"'],
    ['a type array', props({ r: { type: ['string', 'null'], 'x-mcp-header': 'R' } }), 'properties/r', 'exactly one of string, integer or boolean'],
    ['a property without type', props({ r: { enum: ['a', 'b'], 'x-mcp-header': 'R' } }), 'properties/r', 'the property has none'],
    ['an integer whose maximum leaves the safe range', props({ n: { type: 'integer', maximum: UNSAFE, 'x-mcp-header': 'N' } }), 'properties/n', 'outside ±(2^53−1)'],
    ['an integer whose minimum leaves the safe range', props({ n: { type: 'integer', minimum: -UNSAFE, 'x-mcp-header': 'N' } }), 'properties/n', 'outside ±(2^53−1)'],
    [
      'an integer whose exclusiveMaximum leaves the safe range',
      props({ n: { type: 'integer', exclusiveMaximum: UNSAFE, 'x-mcp-header': 'N' } }),
      'properties/n',
      'outside ±(2^53−1)',
    ],
    [
      'an integer whose exclusiveMinimum leaves the safe range',
      props({ n: { type: 'integer', exclusiveMinimum: -UNSAFE, 'x-mcp-header': 'N' } }),
      'properties/n',
      'outside ±(2^53−1)',
    ],
    ['an integer enum listing an unsafe value', props({ n: { type: 'integer', enum: [1, UNSAFE], 'x-mcp-header': 'N' } }), 'properties/n', 'outside ±(2^53−1)'],
    ['an integer const that is an unsafe value', props({ n: { type: 'integer', const: UNSAFE, 'x-mcp-header': 'N' } }), 'properties/n', 'outside ±(2^53−1)'],
    [
      'a place under items',
      props({ list: { type: 'array', items: { type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'R' } } } } }),
      'properties/list/items/properties/r',
      'reachable from the root',
    ],
    ['a place under anyOf', props({}, { anyOf: [{ properties: { r: { type: 'string', 'x-mcp-header': 'R' } } }] }), 'anyOf/0/properties/r', 'reachable from the root'],
    ['a place under if', props({}, { if: { properties: { r: { type: 'string', 'x-mcp-header': 'R' } } } }), 'if/properties/r', 'reachable from the root'],
    ['a place under $defs', props({ r: { $ref: '#/$defs/r' } }, { $defs: { r: { type: 'string', 'x-mcp-header': 'R' } } }), '$defs/r', 'reachable from the root'],
    [
      'a place under patternProperties',
      props({}, { patternProperties: { '^r': { type: 'string', 'x-mcp-header': 'R' } } }),
      'patternProperties/^r',
      'reachable from the root',
    ],
    ['the root schema itself', { type: 'object', 'x-mcp-header': 'Root' }, '(root)', 'reachable from the root'],
  ])('refuses %s, naming the tool and the property', async (_label, schema, where, offence) => {
    const thrown = await bootError(schema);
    expect(thrown).toBeInstanceOf(McpConfigurationError);
    const error = thrown as McpConfigurationError;
    expect(error.where).toBe(`tool "annotated", input schema at ${where}`);
    expect(error.offence).toContain(offence);
  });

  it.each([
    ['a nested property under a pure properties chain', props({ a: { type: 'object', properties: { b: { type: 'integer', maximum: 10, 'x-mcp-header': 'B' } } } })],
    ['the value Method, which yields Mcp-Param-Method', props({ m: { type: 'string', 'x-mcp-header': 'Method' } })],
    ['every tchar', props({ m: { type: 'boolean', 'x-mcp-header': "!#$%&'*+-.^_`|~09AZaz" } })],
    ['an x-mcp-header key inside a default value (data, not an annotation)', props({ o: { type: 'object', default: { 'x-mcp-header': 'X' } } })],
    ['an x-mcp-header key inside an example (data, not an annotation)', props({ o: { type: 'object', examples: [{ 'x-mcp-header': 'X' }] } })],
    ['a property named x-mcp-header', props({ 'x-mcp-header': { type: 'string' } })],
    ['a string property with a bound past ±(2^53−1), which bounds only numbers', props({ s: { type: 'string', maximum: UNSAFE, 'x-mcp-header': 'S' } })],
  ])('starts with %s, publishing the annotation unchanged', async (_label, schema) => {
    const t = await createTestApp({ providers: [toolWith(schema)] });
    try {
      const res = await post(t.server, rpc('tools/list'));
      const published = res.body.result.tools.find((tool: { name: string }) => tool.name === 'annotated');
      // the published schema carries the unknown-key closure the dispatch gates enforce (docs/tools.md)
      expect(published.inputSchema).toEqual(closeSchema(schema));
    } finally {
      await t.close();
    }
  });
});

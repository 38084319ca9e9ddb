import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';

import { McpTool, type McpPlainTool } from '../../lib/index.js';
import { DIGESTED_ROOT_KEYWORDS } from '../../lib/tools/plain-tool.js';
import { ajvErrorsCopied } from '../support/error-copies.js';
import { post, rpc } from '../support/mcp-client.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool } from '../support/tool-call.js';
import { EchoTool } from '../support/tools.js';

/** A plain tool whose input schema is recursive (a tree of named nodes, through a `$ref`). */
@McpTool({
  name: 'tree',
  description: 'Counts the nodes of a tree.',
  inputSchema: {
    type: 'object',
    properties: { nodes: { type: 'array', items: { $ref: '#/$defs/node' } } },
    $defs: { node: { type: 'object', properties: { name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name'] } },
  },
})
class TreeTool implements McpPlainTool {
  run(args: { nodes?: unknown[] }) {
    return String(args.nodes?.length ?? 0);
  }
}

/** A plain tool's run that answers with the arguments it was given, as JSON. */
class ArgumentsEcho implements McpPlainTool {
  run(args: Record<string, unknown>) {
    return JSON.stringify(args);
  }
}

/** A plain tool whose root composes its properties: paging through `allOf` and a `$ref`, a path when the mode is file. */
@McpTool({
  name: 'search',
  description: 'Searches.',
  inputSchema: {
    type: 'object',
    $defs: { paging: { properties: { page: { type: 'integer', minimum: 1 } } } },
    properties: { q: { type: 'string' }, mode: { enum: ['web', 'file'] } },
    required: ['q'],
    allOf: [{ $ref: '#/$defs/paging' }],
    if: { properties: { mode: { const: 'file' } } },
    then: { properties: { path: { type: 'string' } }, required: ['path'] },
  },
})
class SearchTool extends ArgumentsEcho {}

/** A plain tool whose root admits any key, beside one closed object and one string with two constraints. */
@McpTool({
  name: 'tagged',
  description: 'Takes any tag, one options object, and a code.',
  inputSchema: {
    type: 'object',
    properties: { opts: { type: 'object', properties: { a: { type: 'string' } } }, code: { type: 'string', minLength: 3, pattern: '^[a-z]+$' } },
    additionalProperties: true,
  },
})
class TaggedTool extends ArgumentsEcho {}

/** A plain tool whose input schema is zod's JSON Schema as `z.toJSONSchema` returns it (zod 4.2+ hides a `~standard` on it). */
@McpTool({
  name: 'price',
  description: 'Takes a price in cents.',
  inputSchema: z.toJSONSchema(z.object({ item: z.string().min(2), price: z.number().multipleOf(0.01), contact: z.email().optional() }), { io: 'input' }),
})
class PriceTool extends ArgumentsEcho {}

/** A plain tool whose root is zod's discriminated union, with the "type": "object" its refusal asks for written beside it. */
@McpTool({
  name: 'shape',
  description: 'Measures a shape.',
  inputSchema: {
    type: 'object',
    ...z.toJSONSchema(
      z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), radius: z.number().positive() }), z.object({ kind: z.literal('square'), side: z.number() })]),
      {
        io: 'input',
      },
    ),
  },
})
class ShapeTool extends ArgumentsEcho {}

/** zod's recursive discriminated union: a filter of filters, which `z.toJSONSchema` writes as a `$defs` entry referring to itself. */
const Filter: z.ZodType = z.lazy(() =>
  z.discriminatedUnion('op', [z.object({ op: z.literal('and'), filters: z.array(Filter) }), z.object({ op: z.literal('eq'), field: z.string(), value: z.string() })]),
);

/** A plain tool taking a recursive filter. */
@McpTool({ name: 'filter', description: 'Filters notes.', inputSchema: z.toJSONSchema(z.object({ filter: Filter }), { io: 'input' }) })
class FilterTool extends ArgumentsEcho {}

/** Shapes zod writes once in `$defs` and refers to (`reused: 'ref'`): the union's branches are `$ref`s. */
const Circle = z.object({ kind: z.literal('circle'), radius: z.number().positive() });
const Square = z.object({ kind: z.literal('square'), side: z.number() });

/** A plain tool whose union's branches are `$ref`s to shapes its other properties reuse. */
@McpTool({
  name: 'draw',
  description: 'Draws a shape.',
  inputSchema: z.toJSONSchema(z.object({ shape: z.discriminatedUnion('kind', [Circle, Square]), favourite: Circle.optional(), spare: Square.optional() }), {
    io: 'input',
    reused: 'ref',
  }),
})
class DrawTool extends ArgumentsEcho {}

/** A plain tool taking a note: two required strings, and an attachment of one of two kinds. */
@McpTool({
  name: 'note',
  description: 'Takes a note.',
  inputSchema: z.toJSONSchema(
    z.object({
      title: z.string(),
      body: z.string(),
      attachment: z.discriminatedUnion('kind', [z.object({ kind: z.literal('link'), url: z.url() }), z.object({ kind: z.literal('file'), path: z.string() })]).optional(),
    }),
    { io: 'input' },
  ),
})
class NoteTool extends ArgumentsEcho {}

/**
 * A plain tool whose item is zod's intersection of an object and a discriminated union (an `allOf` whose first member
 * ajv checks before the union), and whose tag is a union where only one branch has a kind (its enum field no
 * discriminator); its optional target is one of two strict objects, its optional ref one of two objects whose id
 * differs in type.
 */
@McpTool({
  name: 'order',
  description: 'Places an order.',
  inputSchema: z.toJSONSchema(
    z.object({
      item: z
        .object({ sku: z.string() })
        .and(z.discriminatedUnion('via', [z.object({ via: z.literal('post'), address: z.string() }), z.object({ via: z.literal('pickup'), store: z.string() })])),
      tag: z.union([z.object({ kind: z.literal('task'), priority: z.enum(['low', 'high']) }), z.object({ name: z.string() })]),
      target: z.union([z.strictObject({ id: z.string() }), z.strictObject({ url: z.string() })]).optional(),
      ref: z.union([z.object({ id: z.string() }), z.object({ id: z.number() })]).optional(),
    }),
    { io: 'input' },
  ),
})
class OrderTool extends ArgumentsEcho {}

/** A closed object of `kind` and one positive number. */
const shapeOf = (kind: string, size: string, sizeSchema: object) => ({
  type: 'object',
  properties: { kind: { type: 'string', const: kind }, [size]: sizeSchema },
  required: ['kind', size],
  additionalProperties: false,
});

/**
 * A schema as zod 3's `zodToJsonSchema` (zod-to-json-schema 3.25) writes it, its draft-07 `$schema` taken off: a
 * schema used twice is a `$ref` to where it was first written (`#/properties/shape`, a branch of it), and a
 * recursion a `$ref` to its own property.
 */
const ROUTE_SCHEMA = {
  type: 'object',
  properties: {
    shape: { anyOf: [shapeOf('circle', 'radius', { type: 'number', exclusiveMinimum: 0 }), shapeOf('square', 'side', { type: 'number' })] },
    spare: { $ref: '#/properties/shape' },
    favourite: { $ref: '#/properties/shape/anyOf/0' },
    filter: {
      anyOf: [
        { type: 'object', properties: { field: { type: 'string' } }, required: ['field'], additionalProperties: false },
        { type: 'object', properties: { filters: { type: 'array', items: { $ref: '#/properties/filter' } } }, required: ['filters'], additionalProperties: false },
      ],
    },
  },
  required: ['shape'],
  additionalProperties: false,
};

/** A plain tool whose unions are reached through path `$ref`s. */
@McpTool({ name: 'route', description: 'Routes a shape.', inputSchema: ROUTE_SCHEMA })
class RouteTool extends ArgumentsEcho {}

describe('plain tools', () => {
  const app = useTestApp({
    providers: [EchoTool, TreeTool, SearchTool, TaggedTool, PriceTool, ShapeTool, FilterTool, DrawTool, RouteTool, NoteTool, OrderTool],
    options: { maxBodyBytes: 1_000_000 },
  });

  it('serve a root union given "type": "object" beside it: each branch admitted, a call matching none refused', async () => {
    for (const args of [
      { kind: 'circle', radius: 2 },
      { kind: 'square', side: 3 },
    ])
      expect((await callTool(app().server, 'shape', args)).body).toEqual(args);
    // No branch's discriminator admits "triangle": the refusal names the kinds they do.
    const none = await callTool(app().server, 'shape', { kind: 'triangle' });
    expect(none.body).toMatchObject({
      error: 'invalid_values',
      message: 'The arguments object of tool "shape" holds 1 invalid value(s): kind: must be one of "circle", "square".',
      invalid: [{ path: 'kind', problems: ['must be one of "circle", "square"'] }],
    });
  });

  it('word a union’s failure by the branch its discriminator picks: a circle’s radius, not "one of the allowed shapes"', async () => {
    const refused = await callTool(app().server, 'shape', { kind: 'circle', radius: -1 });
    expect(refused.body).toMatchObject({ error: 'invalid_values', invalid_count: 1, invalid: [{ path: 'radius', problems: ['must be > 0'] }] });
    const missing = await callTool(app().server, 'shape', { kind: 'square' });
    expect(missing.body).toMatchObject({ invalid: [{ path: '', problems: ['missing required property "side"'] }] });
  });

  it('word a recursive union’s failure by the branch picked at each level, down to the one at fault', async () => {
    const filter = (leaf: Record<string, unknown>) => ({ filter: { op: 'and', filters: [{ op: 'and', filters: [leaf] }] } });
    const args = filter({ op: 'eq', field: 'title', value: 'x' });
    expect((await callTool(app().server, 'filter', args)).body).toEqual(args);
    const wrongType = await callTool(app().server, 'filter', filter({ op: 'eq', field: 1, value: 'x' }));
    expect(wrongType.body).toMatchObject({
      error: 'invalid_values',
      message: 'The arguments object of tool "filter" holds 1 invalid value(s): filter.filters[0].filters[0].field: must be a string.',
    });
    const unknownOp = await callTool(app().server, 'filter', filter({ op: 'or', field: 'title', value: 'x' }));
    expect(unknownOp.body).toMatchObject({ invalid: [{ path: 'filter.filters[0].filters[0].op', problems: ['must be one of "and", "eq"'] }] });
  });

  it('name what zod’s intersection checks before its union, and a union’s enum field rather than another branch', async () => {
    const args = { item: { sku: 'A-1', via: 'pickup', store: 'north' }, tag: { kind: 'task', priority: 'low' } };
    expect((await callTool(app().server, 'order', args)).body).toEqual(args);
    const refused = await callTool(app().server, 'order', { item: { sku: 5, via: 'pickup', store: 7 }, tag: { kind: 'task', priority: 'urgent' } });
    expect(refused.body).toMatchObject({
      error: 'invalid_values',
      invalid_count: 3,
      invalid: [
        { path: 'item.sku', problems: ['must be a string'] },
        { path: 'item.store', problems: ['must be a string'] },
        { path: 'tag.priority', problems: ['must be one of "low", "high"'] },
      ],
    });
  });

  it('name each property of a union of strict objects sent with another shape’s, one no shape takes, and a field of no branch’s type', async () => {
    const args = { item: { sku: 'A-1', via: 'post', address: 'here' }, tag: { name: 'n' } };
    expect((await callTool(app().server, 'order', { ...args, target: { url: 'u' } })).body).toEqual({ ...args, target: { url: 'u' } });
    const refused = await callTool(app().server, 'order', { ...args, target: { id: 'a', url: 'u', extra: 1 } });
    const mixed = "belongs to another allowed shape than a property sent beside it; send one shape's properties only";
    expect(refused.body).toMatchObject({
      error: 'invalid_values',
      invalid: [
        { path: 'target.extra', problems: ['is not an allowed property'] },
        { path: 'target.id', problems: [mixed] },
        { path: 'target.url', problems: [mixed] },
      ],
    });
    const typed = await callTool(app().server, 'order', { ...args, ref: { id: true } });
    expect(typed.body).toMatchObject({ error: 'invalid_values', invalid: [{ path: 'ref.id', problems: ['must be a string or a number'] }] });
  });

  it('word a failure in a union of $ref branches (zod with reused schemas) by the branch its discriminator picks', async () => {
    const refused = await callTool(app().server, 'draw', { shape: { kind: 'circle', radius: -1 } });
    expect(refused.body).toMatchObject({
      error: 'invalid_values',
      message: 'The arguments object of tool "draw" holds 1 invalid value(s): shape.radius: must be > 0.',
    });
    const unknown = await callTool(app().server, 'draw', { shape: { kind: 'dot' } });
    expect(unknown.body).toMatchObject({ invalid: [{ path: 'shape.kind', problems: ['must be one of "circle", "square"'] }] });
    expect((await callTool(app().server, 'draw', { shape: { kind: 'square', side: 1 } })).body).toEqual({ shape: { kind: 'square', side: 1 } });
  });

  it('word a failure in a union reached through path $refs (zod-to-json-schema’s reuse and recursion) by its branch', async () => {
    const shape = { kind: 'square', side: 2 };
    const args = { shape, spare: shape, favourite: { kind: 'circle', radius: 1 }, filter: { filters: [{ field: 'a' }] } };
    expect((await callTool(app().server, 'route', args)).body).toEqual(args);
    const refused = await callTool(app().server, 'route', {
      shape: { kind: 'circle', radius: 0 },
      spare: { kind: 'dot' },
      favourite: { kind: 'circle', radius: 'x' },
      filter: { filters: [{ filters: [{ field: 1 }] }] },
    });
    expect(refused.body).toMatchObject({
      error: 'invalid_values',
      invalid: [
        { path: 'favourite.radius', problems: ['must be a number'] },
        { path: 'filter.filters[0].filters[0].field', problems: ['must be a string'] },
        { path: 'shape.radius', problems: ['must be > 0'] },
        { path: 'spare.kind', problems: ['must be one of "circle", "square"'] },
      ],
    });
  });

  it('name every missing property in the message, and a discriminator a union’s value lacks, as what to add', async () => {
    const empty = await callTool(app().server, 'note', {});
    expect(empty.body).toMatchObject({ error: 'invalid_values', invalid_count: 1, invalid: [{ path: '', problems: ['missing required properties "title", "body"'] }] });
    expect(empty.body.message).toBe('The arguments object of tool "note" holds 1 invalid value(s): missing required properties "title", "body".');
    const kindless = await callTool(app().server, 'note', { title: 't', body: 'b', attachment: { url: 'https://example.com' } });
    expect(kindless.body.message).toBe('The arguments object of tool "note" holds 1 invalid value(s): attachment: missing required property "kind".');
    const args = { title: 't', body: 'b', attachment: { kind: 'file', path: '/a' } };
    expect((await callTool(app().server, 'note', args)).body).toEqual(args);
  });

  it('take the JSON Schema z.toJSONSchema() returns as it is, and list it without zod’s hidden ~standard', async () => {
    expect(Object.getOwnPropertyNames(z.toJSONSchema(z.object({})))).toContain('~standard');
    const listed = await post(app().server, rpc('tools/list'));
    const price = listed.body.result.tools.find((tool: { name: string }) => tool.name === 'price');
    expect(price.inputSchema).toMatchObject({
      type: 'object',
      properties: { item: { type: 'string', minLength: 2 }, price: { type: 'number', multipleOf: 0.01 } },
      required: ['item', 'price'],
    });
    expect(price.inputSchema).not.toHaveProperty('~standard');
    const served = await callTool(app().server, 'price', { item: 'tea', price: 19.99 });
    expect(served.result.isError).toBeUndefined();
    expect(served.body).toEqual({ item: 'tea', price: 19.99 });
  });

  it('name a value’s format before its pattern (zod writes both): the message shows the format’s words', async () => {
    const refused = await callTool(app().server, 'price', { item: 'tea', price: 1, contact: 'nope' });
    expect(refused.body.invalid).toEqual([
      { path: 'contact', problems: ['must be a valid email, such as "name@example.com"', expect.stringMatching(/^must match the pattern /)] },
    ]);
    expect(refused.body.message).toMatch(/holds 1 invalid value\(s\): contact: must be a valid email, such as "name@example\.com"\.$/);
  });

  it('decide multipleOf in decimal: 19.99 and 0.07 are multiples of 0.01, 19.999 is not', async () => {
    for (const price of [19.99, 0.07, 0.3]) expect((await callTool(app().server, 'price', { item: 'tea', price })).body).toEqual({ item: 'tea', price });
    const refused = await callTool(app().server, 'price', { item: 'tea', price: 19.999 });
    expect(refused.body).toMatchObject({ error: 'invalid_values', invalid: [{ path: 'price', problems: ['must be a multiple of 0.01'] }] });
  });

  it('leave a root that composes its properties open: keys from allOf/$ref and then are served, its schema published unclosed', async () => {
    const listed = await post(app().server, rpc('tools/list'));
    const search = listed.body.result.tools.find((tool: { name: string }) => tool.name === 'search');
    expect(search.inputSchema).not.toHaveProperty('additionalProperties');
    const served = await callTool(app().server, 'search', { q: 'x', page: 2, mode: 'file', path: '/tmp' });
    expect(served.result.isError).toBeUndefined();
    expect(served.body).toEqual({ q: 'x', page: 2, mode: 'file', path: '/tmp' });
    // The value gate still holds the composed schema: a page below 1, or a file search without a path, is refused there.
    for (const args of [
      { q: 'x', page: 0 },
      { q: 'x', mode: 'file' },
    ]) {
      const refused = await callTool(app().server, 'search', args);
      expect(refused.result.isError).toBe(true);
      expect(refused.body).toMatchObject({ error: 'invalid_values' });
    }
  });

  it('are listed with their own input schema, the key-set closure published on it', async () => {
    const listed = await post(app().server, rpc('tools/list'));
    const echo = listed.body.result.tools.find((tool: { name: string }) => tool.name === 'echo');
    expect(echo.inputSchema).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', description: 'The text to echo' },
        options: { type: 'object', properties: { upper: { type: 'boolean' }, at: { type: 'string', format: 'date-time' } }, additionalProperties: false },
      },
      required: ['text'],
      additionalProperties: false,
    });
  });

  it('run with the arguments the gates passed', async () => {
    const answer = await callTool(app().server, 'echo', { text: 'hi', options: { upper: true } });
    expect(answer.result.content).toEqual([{ type: 'text', text: 'HI' }]);
  });

  it('refuse an unknown key at any depth of their arguments, pointing at help on the tool', async () => {
    const answer = await callTool(app().server, 'echo', { text: 'hi', options: { upper: true, shout: 1 } });
    expect(answer.result.isError).toBe(true);
    expect(answer.body).toMatchObject({
      error: 'unknown_params',
      unknown_count: 1,
      unknown: ['options.shout'],
      allowed: { '': ['options', 'text'], options: ['at', 'upper'] },
      input_schema: { required: ['text'], defaults: {} },
      help: { tool: 'help', arguments: { tool: 'echo' } },
    });
    expect(answer.body.message).toMatch(/^The arguments object of tool "echo" holds 1 unknown key\(s\): options\.shout\./);
    expect(answer.body.action).toBeUndefined();
  });

  it('check every value against their schema, formats asserted, required included', async () => {
    const answer = await callTool(app().server, 'echo', { options: { at: 'yesterday' } });
    expect(answer.body).toMatchObject({
      error: 'invalid_values',
      invalid_count: 2,
      invalid: [
        { path: '', problems: ['missing required property "text"'] },
        { path: 'options.at', problems: ['must be a valid date-time, such as "2026-07-28T09:00:00Z" (RFC 3339, with a time zone)'] },
      ],
    });
    expect(answer.body.message).toBe(
      'The arguments object of tool "echo" holds 2 invalid value(s): missing required property "text"; options.at: must be a valid date-time, such as "2026-07-28T09:00:00Z" (RFC 3339, with a time zone).',
    );
  });

  it('check many broken items under a recursive $ref in time linear in their number (no error copied per merge, which took over 5 s here)', async () => {
    const count = 900; // under DETAILED_CHECK_MAX_VALUES and DETAILED_CHECK_MAX_ERRORS, so every item is counted
    let answer: Awaited<ReturnType<typeof callTool>> | undefined;
    const copied = await ajvErrorsCopied(async () => (answer = await callTool(app().server, 'tree', { nodes: Array.from({ length: count }, () => ({})) })));
    expect(copied).toBe(0); // merging ajv's errors by copy copied 40 million errors here
    expect(answer!.result.isError).toBe(true);
    expect(answer!.body).toMatchObject({ error: 'invalid_values', invalid_count: count });
  });

  it('name the required keys missing beside unknown ones, which the unknown-key gate meets first: a misspelling too short to be offered is mended in one retry', async () => {
    const answer = await callTool(app().server, 'echo', { txt: 'hi' });
    expect(answer.body).toMatchObject({ error: 'unknown_params', unknown_count: 1, unknown: ['txt'] });
    expect(answer.body).not.toHaveProperty('missing');
    expect(answer.body.message).toBe(
      'The arguments object of tool "echo" holds 1 unknown key(s): txt; it is also missing required property "text". "allowed" lists the keys each object on the way admits.',
    );
    const beside = await callTool(app().server, 'echo', { text: 'hi', txt: 'hi' });
    expect(beside.body.message).toBe('The arguments object of tool "echo" holds 1 unknown key(s): txt. "allowed" lists the keys each object on the way admits.');
  });

  it('refuse an unknown key of a closed object under an open root at the unknown-key gate, not as an invalid value', async () => {
    const answer = await callTool(app().server, 'tagged', { any: 1, opts: { a: 'x', b: 2 } });
    expect(answer.body).toMatchObject({ error: 'unknown_params', unknown_count: 1, unknown: ['opts.b'], allowed: { '': ['code', 'opts', '<any string key>'], opts: ['a'] } });
    const served = await callTool(app().server, 'tagged', { any: 1, opts: { a: 'x' } });
    expect(served.body).toEqual({ any: 1, opts: { a: 'x' } });
  });

  it('list every problem of a value in invalid, and only the first in the message', async () => {
    const answer = await callTool(app().server, 'tagged', { code: 'A' });
    expect(answer.body).toMatchObject({ error: 'invalid_values', invalid_count: 1 });
    const [{ path, problems }] = answer.body.invalid;
    expect(path).toBe('code');
    expect(problems).toHaveLength(2);
    expect(answer.body.message).toBe(`The arguments object of tool "tagged" holds 1 invalid value(s): code: ${problems[0]}.`);
  });
});

/** One root value per keyword a plain tool's digest carries (typed by the list, so a new keyword needs a case here). */
const DIGESTED: Record<(typeof DIGESTED_ROOT_KEYWORDS)[number], unknown> = {
  $defs: { name: { type: 'string', minLength: 1 } },
  additionalProperties: { type: 'integer' },
  patternProperties: { '^x-': { type: 'integer' } },
  propertyNames: { maxLength: 20 },
  minProperties: 1,
  maxProperties: 10,
  dependentRequired: { b: ['a'] },
  dependentSchemas: { b: { properties: { a: { minLength: 2 } } } },
  allOf: [{ properties: { a: { $ref: '#/$defs/name' } } }],
  anyOf: [{ required: ['a'] }, { required: ['b'] }],
  oneOf: [{ required: ['a'] }, { not: { required: ['a'] } }],
  not: { required: ['forbidden'] },
  if: { required: ['b'] },
  then: { properties: { b: { type: 'string' } } },
  else: true,
  unevaluatedProperties: false,
};

/** A plain tool whose root uses every keyword of DIGESTED_ROOT_KEYWORDS. */
@McpTool({
  name: 'rooted',
  description: 'Takes arguments its root keywords decide.',
  inputSchema: { type: 'object', title: 'Rooted', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'], ...DIGESTED },
})
class RootedTool implements McpPlainTool {
  run() {
    return 'ok';
  }
}

describe('a plain tool’s input_schema digest', () => {
  const app = useTestApp({ providers: [RootedTool, TreeTool] });

  it('carries each root keyword that decides its arguments, besides properties and required (DIGESTED_ROOT_KEYWORDS)', async () => {
    const refused = await callTool(app().server, 'rooted', { a: 5 });
    expect(refused.body).toMatchObject({ error: 'invalid_values' });
    const digest = refused.body.input_schema;
    for (const keyword of DIGESTED_ROOT_KEYWORDS) expect(digest).toHaveProperty([keyword], DIGESTED[keyword]);
    expect(digest).toMatchObject({ properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'], defaults: {} });
    expect(digest).not.toHaveProperty('title');
    expect(digest).not.toHaveProperty('type');
  });

  it('so a $ref in its properties resolves: a recursive tool’s digest carries its $defs', async () => {
    const refused = await callTool(app().server, 'tree', { nodes: [{ kids: [] }] });
    expect(refused.body).toMatchObject({ error: 'invalid_values' });
    expect(refused.body.input_schema.properties.nodes.items).toEqual({ $ref: '#/$defs/node' });
    expect(refused.body.input_schema.$defs).toHaveProperty('node');
  });
});

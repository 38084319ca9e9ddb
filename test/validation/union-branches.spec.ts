import { describe, expect, it } from '@jest/globals';

import { ProtocolSchema, type ProtocolSchemaDocument } from '../../lib/protocol/protocol-schema.js';
import { resolveLocalRef } from '../../lib/validation/local-ref.js';
import { unionBranchesAt, unionRefs } from '../../lib/validation/union-branches.js';

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const kind = (value: string, required: string) => ({ type: 'object', properties: { type: { const: value }, [required]: { type: 'string' } }, required: ['type', required] });

/** A document whose unions have `$ref` branches: one in place, one a definition of its own, and two that collide. */
const document: ProtocolSchemaDocument = {
  $defs: {
    Request: { type: 'object', properties: { params: ref('Params'), shape: ref('Shape') } },
    Params: {
      type: 'object',
      properties: {
        item: { anyOf: [ref('Circle'), ref('Square'), { type: 'null' }] },
        list: { type: 'array', items: ref('Shape') },
        map: { type: 'object', additionalProperties: ref('Shape') },
        plain: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        choice: { anyOf: [ref('Circle'), ref('Square'), { type: 'object', required: ['shape'] }] },
        drawn: { oneOf: [{ type: 'object', properties: { type: { const: 'triangle' } }, required: ['type'] }, ref('Circle'), ref('Square')] },
        'a/b~c d': { anyOf: [ref('Circle'), { type: 'null' }] },
      },
    },
    Shape: { oneOf: [ref('Circle'), ref('Square')] },
    Circle: kind('circle', 'radius'),
    Square: kind('square', 'side'),
    // Two definitions with a union at the same path, with different branches, both applying to one value.
    Both: { allOf: [ref('Left'), ref('Right')] },
    Left: { type: 'object', properties: { x: { anyOf: [ref('Circle'), { type: 'null' }] } } },
    Right: { type: 'object', properties: { x: { anyOf: [ref('Square'), { type: 'null' }] } } },
    Wrapped: { allOf: [ref('Left')] },
    // A union that is one of its own branches: the walk reads each schema once.
    Loop: { anyOf: [ref('Loop'), ref('Circle')] },
    Unreached: { anyOf: [ref('Lonely'), { type: 'null' }] },
    Lonely: { type: 'string' },
    // A branch referring into another definition, which the protocol's validators do not compile on its own.
    Detour: { type: 'object', properties: { s: { anyOf: [ref('Circle'), { $ref: '#/$defs/Params/properties/plain' }] } } },
  },
};

describe('unionBranchesAt', () => {
  it('finds a union in place by its path within the definition, relative or under $defs, and names its $ref branches', () => {
    for (const schemaPath of ['#/properties/item/anyOf', '#/$defs/Params/properties/item/anyOf'])
      expect(unionBranchesAt(document, 'Request', ['params', 'item'], { keyword: 'anyOf', schemaPath })).toEqual(['#/$defs/Circle', '#/$defs/Square', undefined]);
  });

  it('finds a definition that is a union itself, through items, additionalProperties, allOf and $refs', () => {
    expect(unionBranchesAt(document, 'Request', ['params', 'map', 'any'], { keyword: 'oneOf', schemaPath: '#/oneOf' })).toEqual(['#/$defs/Circle', '#/$defs/Square']);
    expect(unionBranchesAt(document, 'Wrapped', ['x'], { keyword: 'anyOf', schemaPath: '#/$defs/Left/properties/x/anyOf' })).toEqual(['#/$defs/Circle', undefined]);
    expect(unionBranchesAt(document, 'Request', ['params', 'list', 3], { keyword: 'oneOf', schemaPath: '#/oneOf' })).toEqual(['#/$defs/Circle', '#/$defs/Square']);
    expect(unionBranchesAt(document, 'Request', ['shape'], { keyword: 'oneOf', schemaPath: '#/$defs/Shape/oneOf' })).toEqual(['#/$defs/Circle', '#/$defs/Square']);
  });

  it('answers a union with no $ref branch by its branch count alone', () => {
    expect(unionBranchesAt(document, 'Request', ['params', 'plain'], { keyword: 'anyOf', schemaPath: '#/properties/plain/anyOf' })).toEqual([undefined, undefined]);
  });

  it('reads a schema reached twice at one place once (a union that is its own branch)', () => {
    expect(unionBranchesAt(document, 'Loop', [], { keyword: 'anyOf', schemaPath: '#/anyOf' })).toEqual(['#/$defs/Loop', '#/$defs/Circle']);
  });

  it('answers nothing for a path no union there matches, a keyword it does not have, or two unions that differ', () => {
    expect(unionBranchesAt(document, 'Request', ['params', 'item'], { keyword: 'anyOf', schemaPath: '#/properties/other/anyOf' })).toBeUndefined();
    expect(unionBranchesAt(document, 'Request', ['params', 'item'], { keyword: 'oneOf', schemaPath: '#/properties/item/oneOf' })).toBeUndefined();
    expect(unionBranchesAt(document, 'Request', ['nowhere'], { keyword: 'oneOf', schemaPath: '#/oneOf' })).toBeUndefined();
    expect(unionBranchesAt(document, 'Both', ['x'], { keyword: 'anyOf', schemaPath: '#/properties/x/anyOf' })).toBeUndefined();
    expect(unionBranchesAt(document, 'Left', ['x'], { keyword: 'anyOf', schemaPath: '#/properties/x/anyOf' })).toEqual(['#/$defs/Circle', undefined]);
  });
});

describe('unionRefs', () => {
  it('names the $ref branches of the unions reachable from the definitions given, and no others', () => {
    expect(unionRefs(document, ['Request'])).toEqual({ branchRefs: ['#/$defs/Circle', '#/$defs/Square'], lookedUp: true });
    expect(unionRefs(document, ['Unreached', 'Both'])).toEqual({ branchRefs: ['#/$defs/Circle', '#/$defs/Lonely', '#/$defs/Square'], lookedUp: true });
  });

  it('asks for a lookup only where a union and a $ref are both reachable', () => {
    expect(unionRefs(document, ['Circle'])).toEqual({ branchRefs: [], lookedUp: false });
    expect(unionRefs({ anyOf: [{ type: 'string' }, { type: 'null' }] }, [undefined])).toEqual({ branchRefs: [], lookedUp: false });
    expect(unionRefs({ items: { $ref: '#' } }, [undefined])).toEqual({ branchRefs: [], lookedUp: false });
    expect(unionRefs({ anyOf: [{ type: 'string' }, { items: { $ref: '#' } }] }, [undefined])).toEqual({ branchRefs: [], lookedUp: true });
    // Not where a subschema declares its own $id: its $refs resolve against it, not against the document.
    const scoped = { $id: 'https://example.com/root', anyOf: [{ $ref: '#/$defs/a' }, { $id: 'https://example.com/b', type: 'null' }], $defs: { a: {} } };
    expect(unionRefs(scoped, [undefined])).toEqual({ branchRefs: ['#/$defs/a'], lookedUp: false });
    expect(unionRefs({ ...scoped, anyOf: [{ $ref: '#/$defs/a' }, { type: 'null' }] }, [undefined]).lookedUp).toBe(true);
  });

  it('takes a branch of a $ref and annotations as that $ref, and no branch holding another keyword or an unresolved $ref', () => {
    const branches = [
      { $ref: '#/definitions/a', description: 'a', title: 'A' },
      { $ref: '#/definitions/b', type: 'object' },
      { $ref: '#/definitions/none' },
      { $ref: 'https://example.com/c' },
    ];
    expect(unionRefs({ anyOf: branches, definitions: { a: {}, b: {} } }, [undefined])).toEqual({ branchRefs: ['#/definitions/a'], lookedUp: true });
  });
});

describe('resolveLocalRef', () => {
  const tool = {
    properties: { 'a/b': { anyOf: [{ type: 'string' }] }, '0': { type: 'null' } },
    definitions: { 'x y': { type: 'integer' } },
    $defs: { '~z': {}, '~1': { type: 'string' }, '/': {} },
  };

  it('resolves "#" and any JSON pointer in the document, escaped as a URI fragment', () => {
    expect(resolveLocalRef(tool, '#')).toBe(tool);
    expect(resolveLocalRef(tool, '#/properties/a~1b/anyOf/0')).toEqual({ type: 'string' });
    expect(resolveLocalRef(tool, '#/definitions/x%20y')).toEqual({ type: 'integer' });
    expect(resolveLocalRef(tool, '#/$defs/~0z')).toEqual({});
    expect(resolveLocalRef(tool, '#/properties/0')).toEqual({ type: 'null' });
    // Percent-decoded, then unescaped, ~1 before ~0.
    expect(resolveLocalRef(tool, '#/$defs/~01')).toEqual({ type: 'string' });
    expect(resolveLocalRef(tool, '#/$defs/%7E1')).toEqual({});
  });

  it('resolves nothing that is not a schema object of the document: an anchor, a URI, a missing or broken pointer', () => {
    for (const ref of [
      '#anchor',
      '#_properties',
      'https://example.com/s.json',
      '#/properties/nope',
      '#/properties/a~1b/anyOf',
      '#/definitions/%E0%A4%A',
      '#/properties/a~1b/anyOf/length',
    ])
      expect(resolveLocalRef(tool, ref)).toBeUndefined();
  });
});

describe('unionBranchesAt in a tool schema written by other generators', () => {
  const circle = { type: 'object', properties: { kind: { const: 'circle' } } };
  it('follows #/definitions and path $refs, matched as ajv reports them, inlined or compiled apart', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { anyOf: [{ $ref: '#/definitions/Circle' }, { type: 'null' }] },
        b: { $ref: '#/properties/a' },
        '0': { oneOf: [{ $ref: '#/definitions/Circle' }, { $ref: '#/properties/a/anyOf/1' }] },
      },
      definitions: { Circle: circle },
    };
    const refs = ['#/definitions/Circle', undefined];
    expect(unionBranchesAt(schema, undefined, ['a'], { keyword: 'anyOf', schemaPath: '#/properties/a/anyOf' })).toEqual(refs);
    for (const schemaPath of ['#/anyOf', '#/properties/a/anyOf']) expect(unionBranchesAt(schema, undefined, ['b'], { keyword: 'anyOf', schemaPath })).toEqual(refs);
    // A key of digits, which the instance path spells as an index.
    expect(unionBranchesAt(schema, undefined, [0], { keyword: 'oneOf', schemaPath: '#/properties/0/oneOf' })).toEqual(['#/definitions/Circle', '#/properties/a/anyOf/1']);
  });
});

describe('a protocol schema check of a value failing a union of $ref branches', () => {
  const schema = new ProtocolSchema(document, 'union-branches-test');

  it('words the problem inside the branch the value picks, or the values no branch admits', () => {
    expect(schema.check('Request', { params: { item: { type: 'circle', radius: 1 } } })).toEqual([{ path: ['params', 'item', 'radius'], problem: 'must be a string' }]);
    expect(schema.check('Request', { shape: { type: 'square' } })).toEqual([{ path: ['shape'], problem: 'missing required property "side"' }]);
    // A property name ajv escapes in its schema paths (`/` and `~`).
    expect(schema.check('Request', { params: { 'a/b~c d': { type: 'circle', radius: 1 } } })).toEqual([
      { path: ['params', 'a/b~c d', 'radius'], problem: 'must be a string' },
    ]);
    expect(schema.check('Request', { params: { list: [{ type: 'dot' }] } })).toEqual([{ path: ['params', 'list', 0, 'type'], problem: 'must be one of "circle", "square"' }]);
    expect(schema.check('Both', { x: { type: 'circle', radius: 1 } })).toEqual([{ path: ['x'], problem: 'must match at least one of the allowed shapes' }]);
    // The kinds in branch order, a branch written in place first, though the $ref branches are checked apart.
    expect(schema.check('Request', { params: { drawn: { type: 'dot' } } })).toEqual([
      { path: ['params', 'drawn', 'type'], problem: 'must be one of "triangle", "circle", "square"' },
    ]);
    // A branch written in place counts beside those checked one by one: a square, or any object with a shape.
    expect(schema.check('Request', { params: { choice: { type: 'square' } } })).toEqual([
      { path: ['params', 'choice'], problem: 'missing required property "side" or "shape"' },
    ]);
  });

  it('leaves a union standing for its branches where one is a $ref to no definition of its own', () => {
    expect(schema.check('Detour', { s: { type: 'circle', radius: 1 } })).toEqual([{ path: ['s'], problem: 'must match at least one of the allowed shapes' }]);
  });

  it('checks no union branch by branch past the detailed-check bound (10,000 values): the union stands for its branches', () => {
    const filler = Array.from({ length: 10_001 }, () => 0);
    // A union of $ref branches alone: their order cannot place their errors, only checking them one by one can.
    expect(schema.check('Request', { shape: { type: 'circle', radius: 1 }, params: { filler } })).toEqual([
      { path: ['shape'], problem: 'must match exactly one of the allowed shapes' },
    ]);
    expect(schema.check('Request', { shape: { type: 'circle', radius: 1 }, params: { filler: [] } })).toEqual([{ path: ['shape', 'radius'], problem: 'must be a string' }]);
  });

  it('checks at most eight unions branch by branch in one check; the rest stand for their branches', () => {
    const list = Array.from({ length: 9 }, () => ({ type: 'dot' }));
    const problems = schema.check('Request', { params: { list } });
    expect(problems.slice(0, 8)).toEqual(list.slice(0, 8).map((_, i) => ({ path: ['params', 'list', i, 'type'], problem: 'must be one of "circle", "square"' })));
    expect(problems.slice(8)).toEqual([{ path: ['params', 'list', 8], problem: 'must match exactly one of the allowed shapes' }]);
  });
});

const vendored = await ProtocolSchema.vendored();

describe('the vendored schema', () => {
  it("words a content block's problem in the block its type picks, or names the types a block may take", () => {
    const blocks = 'must be one of "text", "image", "audio", "resource_link", "resource"';
    expect(
      vendored.check('CallToolResult', {
        resultType: 'complete',
        content: [
          { type: 'text', text: 'a' },
          { type: 'txt', text: 'b' },
        ],
      }),
    ).toEqual([{ path: ['content', 1, 'type'], problem: blocks }]);
    expect(vendored.check('CallToolResult', { resultType: 'complete', content: [{ type: 'image', data: 'QQ==' }] })).toEqual([
      { path: ['content', 0], problem: 'missing required property "mimeType"' },
    ]);
    // A sampling result's content: a block or a list of blocks; an object is no list.
    expect(vendored.check('CreateMessageResult', { role: 'assistant', model: 'm', content: { type: 'text' } })).toEqual([
      { path: ['content'], problem: 'missing required property "text"' },
    ]);
  });
});

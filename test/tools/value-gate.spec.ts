import { describe, expect, it, jest } from '@jest/globals';

import { McpConfigurationError } from '../../lib/index.js';
import { ValueGate } from '../../lib/tools/value-gate.js';
import { FINITE_NUMBER } from '../../lib/validation/finite-numbers.js';
import { DETAILED_CHECK_MAX_ERRORS } from '../../lib/validation/linear-errors.js';
import { SchemaCompiler } from '../../lib/validation/schema-compiler.js';
import { DETAILED_CHECK_MAX_PATH_CHARS, DETAILED_CHECK_MAX_VALUES } from '../../lib/validation/value-count.js';

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
      { path: 'due', problems: ['must be a valid date, such as "2026-07-28"'] },
      { path: 'email', problems: ['must be a valid email, such as "name@example.com"'] },
    ]);
  });

  it('checks an explicit null like any other value', () => {
    expect(gate.check({ title: null })?.invalid).toEqual([{ path: 'title', problems: ['must be a string, not null (leave out an optional property rather than send null)'] }]);
    expect(gate.check({ note: null })).toBeUndefined();
  });

  it('accepts a whole-number float where the schema says integer (JSON has one number type)', () => {
    expect(gate.check(JSON.parse('{"count": 2.0}'))).toBeUndefined();
    expect(gate.check({ count: 2.5 })?.invalid).toEqual([{ path: 'count', problems: ['must be an integer'] }]);
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
    // One of exactly 200 characters is kept whole.
    const exact = `^${'a'.repeat(173)}$`;
    const fits = ValueGate.build(compiler, { type: 'object', properties: { code: { type: 'string', pattern: exact } } }, 'test gate');
    expect(fits.check({ code: 'x' })!.invalid[0]!.problems).toEqual([`must match the pattern "${exact}"`]);
  });

  it('looks only for the first problem of data holding more than DETAILED_CHECK_MAX_VALUES values, and says so', () => {
    // The root, the array, the title and the note, and an object and a number per item: 4 + 2 × 4998 = DETAILED_CHECK_MAX_VALUES values.
    const items = Array.from({ length: (DETAILED_CHECK_MAX_VALUES - 4) / 2 }, () => ({ n: 1 }));
    const at = gate.check({ items, title: 5, note: null })!;
    expect(at).toEqual({ invalid_count: 1, invalid: [{ path: 'title', problems: ['must be a string'] }] });
    // One value more: the item's object and number, less the note.
    const over = gate.check({ items: [...items, { n: 1 }], title: 5 })!;
    expect(over).toEqual({ invalid_count: 1, invalid: [{ path: 'title', problems: ['must be a string'] }], first_only: true });
  });

  it('looks only for the first problem of data failing in more than DETAILED_CHECK_MAX_ERRORS ways, and says so', () => {
    // The bounds docs/tools.md states.
    expect([DETAILED_CHECK_MAX_VALUES, DETAILED_CHECK_MAX_ERRORS, DETAILED_CHECK_MAX_PATH_CHARS]).toEqual([10_000, 1_000, 64_000]);
    const at = gate.check({ items: Array.from({ length: DETAILED_CHECK_MAX_ERRORS }, () => ({ n: 'x' })) })!;
    expect(at.invalid_count).toBe(DETAILED_CHECK_MAX_ERRORS);
    expect(at).not.toHaveProperty('first_only');
    const over = gate.check({ items: Array.from({ length: DETAILED_CHECK_MAX_ERRORS + 1 }, () => ({ n: 'x' })) })!;
    expect(over).toEqual({ invalid_count: 1, invalid: [{ path: 'items[0].n', problems: ['must be an integer'] }], first_only: true });
  });

  it('looks only for the first problem of data whose problems lie at locations spelling more than DETAILED_CHECK_MAX_PATH_CHARS characters, and says so', () => {
    // Each problem's location is "/" and a key of 999 characters: 64 of them spell DETAILED_CHECK_MAX_PATH_CHARS.
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `${String(i).padStart(3, '0')}${'k'.repeat(996)}`);
    const typed = (names: string[]) => Object.fromEntries(names.map((name) => [name, 1]));
    const perLocation = DETAILED_CHECK_MAX_PATH_CHARS / 1_000;
    // A schema checked twice (its keys free) and a bounded one (its keys declared): both bound the description.
    const free = ValueGate.build(compiler, { type: 'object', additionalProperties: { type: 'string' } }, 'test gate');
    const declared = ValueGate.build(
      compiler,
      { type: 'object', properties: Object.fromEntries(keys(perLocation + 1).map((name) => [name, { type: 'string' }])) },
      'test gate',
    );
    for (const g of [free, declared]) {
      const at = g.check(typed(keys(perLocation)))!;
      expect(at.invalid_count).toBe(perLocation);
      expect(at).not.toHaveProperty('first_only');
      const over = g.check(typed(keys(perLocation + 1)))!;
      expect(over).toMatchObject({ invalid_count: 1, invalid: [{ problems: ['must be a string'] }], first_only: true });
    }
  });

  it('names the first problem only when either side passes the bound: the schema check or the numbers out of range', () => {
    const mixed = ValueGate.build(compiler, { type: 'object', properties: { typed: { type: 'array', items: { type: 'number' } }, free: {} } }, 'test gate');
    const many = (n: number, value: unknown) => new Array(n).fill(value) as unknown[];
    const outOfRangeOver = mixed.check({ typed: [1, 'x', 'y'], free: many(DETAILED_CHECK_MAX_ERRORS + 1, Infinity) })!;
    expect(outOfRangeOver).toMatchObject({ invalid_count: 1, first_only: true });
    expect(outOfRangeOver.invalid).toHaveLength(1);
    const schemaOver = mixed.check({ typed: many(DETAILED_CHECK_MAX_ERRORS + 1, 'x'), free: [Infinity, Infinity] })!;
    expect(schemaOver).toMatchObject({ invalid_count: 1, first_only: true });
    expect(schemaOver.invalid).toHaveLength(1);
    const neither = mixed.check({ typed: [1, 'x'], free: [Infinity] })!;
    expect(neither).toEqual({
      invalid_count: 2,
      invalid: [
        { path: 'free[0]', problems: [FINITE_NUMBER] },
        { path: 'typed[1]', problems: ['must be a number'] },
      ],
    });
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

    it('finds a duplicate pair at the head of a long list as quickly: a pair-by-pair scan meets that pair last', () => {
      const picks = [{ pick: 0 }, ...Array.from({ length: 4_000 }, (_, i) => ({ pick: i }))];
      const started = performance.now();
      expect(unique.check({ picks })?.invalid).toEqual([{ path: 'picks', problems: ['must not contain duplicate items'] }]);
      // ajv's own uniqueItems took about eight seconds over this list; the linear check, a few milliseconds.
      expect(performance.now() - started).toBeLessThan(1_000);
    });

    it('lets a list hold duplicates under uniqueItems: false', () => {
      const repeatable = ValueGate.build(compiler, { type: 'object', properties: { picks: { type: 'array', uniqueItems: false } } }, 'test gate');
      expect(repeatable.check({ picks: [{ a: 1 }, { a: 1 }, 2, 2] })).toBeUndefined();
    });
  });

  it("never writes a schema's default into the data it checks (defaults are the action's, applied after the gates)", () => {
    const defaulted = ValueGate.build(compiler, { type: 'object', properties: { size: { type: 'integer', default: 5 } } }, 'test gate');
    const data = {};
    expect(defaulted.check(data)).toBeUndefined();
    expect(data).toEqual({});
  });

  describe('a union whose branches are $refs (zod with reused or registered schemas)', () => {
    const kind = (value: string, size: string) => ({
      type: 'object',
      properties: { kind: { const: value }, [size]: { type: 'number', minimum: 0 } },
      required: ['kind', size],
    });
    const shapes = (defs: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      ValueGate.build(
        compiler,
        { ...extra, type: 'object', properties: { shape: { oneOf: [{ $ref: '#/$defs/circle' }, { $ref: '#/$defs/square' }] } }, $defs: defs },
        'test gate',
      );

    it('checks each $ref branch on its own to word the problem in the branch the value picks, or the kinds none admits', () => {
      const gate = shapes({ circle: kind('circle', 'radius'), square: kind('square', 'side') });
      expect(gate.check({ shape: { kind: 'circle', radius: -1 } })?.invalid).toEqual([{ path: 'shape.radius', problems: ['must be >= 0'] }]);
      expect(gate.check({ shape: { kind: 'dot' } })?.invalid).toEqual([{ path: 'shape.kind', problems: ['must be one of "circle", "square"'] }]);
      expect(gate.check({ shape: { kind: 'square', side: 2 } })).toBeUndefined();
    });

    it('checks no branch again past the detailed-check bound: the union stands for its branches, first problem only', () => {
      const gate = shapes({ circle: kind('circle', 'radius'), square: kind('square', 'side') });
      const filler = Array.from({ length: DETAILED_CHECK_MAX_VALUES }, () => 0);
      expect(gate.check({ shape: { kind: 'circle', radius: -1 }, filler })).toEqual({
        invalid_count: 1,
        invalid: [{ path: 'shape', problems: ['must match exactly one of the allowed shapes'] }],
        first_only: true,
      });
    });

    it('compiles the branches of each schema apart: a later schema with definitions of the same names reads its own', () => {
      const later = shapes({ circle: kind('circle', 'diameter'), square: kind('square', 'edge') });
      expect(later.check({ shape: { kind: 'square', edge: -1 } })?.invalid).toEqual([{ path: 'shape.edge', problems: ['must be >= 0'] }]);
    });

    it('compiles the branch validators of one schema text once, for the value gate and output schemas alike', () => {
      const compileBranchChecks = jest.spyOn(SchemaCompiler.prototype as unknown as { compileBranchChecks(schema: unknown): unknown }, 'compileBranchChecks');
      try {
        const schema = () => ({
          type: 'object',
          properties: { pick: { anyOf: [{ $ref: '#/$defs/a' }, { $ref: '#/$defs/b' }] } },
          $defs: { a: kind('a', 'x'), b: kind('b', 'y') },
        });
        const outputs = [new SchemaCompiler().compileOutput(schema(), 'one'), new SchemaCompiler().compileOutput(schema(), 'two')];
        const gate = ValueGate.build(new SchemaCompiler(), schema(), 'three');
        expect(compileBranchChecks).toHaveBeenCalledTimes(1);
        expect(outputs[1]!.unionLookupOf).toBe(outputs[0]!.unionLookupOf);
        expect(gate.check({ pick: { kind: 'b', y: -1 } })?.invalid).toEqual([{ path: 'pick.y', problems: ['must be >= 0'] }]);
      } finally {
        compileBranchChecks.mockRestore();
      }
    });

    it('does so for a schema with its own $id', () => {
      const identified = shapes({ circle: kind('circle', 'r'), square: kind('square', 's') }, { $id: 'https://example.com/shapes.json' });
      expect(identified.check({ shape: { kind: 'circle', r: 'x' } })?.invalid).toEqual([{ path: 'shape.r', problems: ['must be a number'] }]);
      // Another schema under the same $id compiles too: the first left nothing registered behind.
      const again = shapes({ circle: kind('circle', 'radius'), square: kind('square', 'side') }, { $id: 'https://example.com/shapes.json' });
      expect(again.check({ shape: { kind: 'square', side: 'x' } })?.invalid).toEqual([{ path: 'shape.side', problems: ['must be a number'] }]);
    });
  });

  describe("a union reached through other local $refs (zod 3's zod-to-json-schema, draft-07 generators)", () => {
    const circle = { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number', minimum: 0 } }, required: ['kind', 'radius'] };
    const square = { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: ['kind', 'side'] };
    const invalid = (schema: Record<string, unknown>, value: unknown) => ValueGate.build(compiler, schema, 'test gate').check(value)?.invalid;

    it('checks branches that are $refs to #/definitions, or to a path, perhaps annotated, as those to $defs', () => {
      const schema = {
        type: 'object',
        properties: {
          shape: { anyOf: [{ $ref: '#/definitions/Circle' }, { $ref: '#/definitions/Square', description: 'a square' }] },
          again: { $ref: '#/properties/shape' },
          other: { oneOf: [{ $ref: '#/properties/shape/anyOf/0' }, { $ref: '#/definitions/Square' }] },
        },
        definitions: { Circle: circle, Square: square },
      };
      expect(invalid(schema, { shape: { kind: 'circle', radius: -1 } })).toEqual([{ path: 'shape.radius', problems: ['must be >= 0'] }]);
      expect(invalid(schema, { shape: { kind: 'square', side: 'x' } })).toEqual([{ path: 'shape.side', problems: ['must be a number'] }]);
      expect(invalid(schema, { again: { kind: 'dot' } })).toEqual([{ path: 'again.kind', problems: ['must be one of "circle", "square"'] }]);
      expect(invalid(schema, { other: { kind: 'square', side: 'x' } })).toEqual([{ path: 'other.side', problems: ['must be a number'] }]);
    });

    it('words a recursion at each level whichever branch recurses: through #, #/definitions or a key of digits', () => {
      const leafOrList = { anyOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#/definitions/Tree' } }] };
      expect(invalid({ type: 'object', properties: { tree: { $ref: '#/definitions/Tree' } }, definitions: { Tree: leafOrList } }, { tree: [['a', 1]] })).toEqual([
        { path: 'tree[0][1]', problems: ['must be a string or an array'] },
      ]);
      const node = {
        type: 'object',
        anyOf: [
          { properties: { leaf: { type: 'string' } }, required: ['leaf'], additionalProperties: false },
          { properties: { kids: { type: 'array', items: { $ref: '#' } } }, required: ['kids'], additionalProperties: false },
        ],
      };
      expect(invalid(node, { kids: [{ kids: [{ leaf: 3 }] }] })).toEqual([{ path: 'kids[0].kids[0].leaf', problems: ['must be a string'] }]);
      const digits = { type: 'object', properties: { '0': { oneOf: [{ $ref: '#/$defs/c' }, { $ref: '#/$defs/s' }] } }, $defs: { c: circle, s: square } };
      expect(invalid(digits, { '0': { kind: 'circle', radius: -1 } })).toEqual([{ path: '["0"].radius', problems: ['must be >= 0'] }]);
    });

    it('leaves a union standing for its branches where a subschema declares its own $id (its $refs resolve against it)', () => {
      // `#/$defs/c` inside `s` names s's own circle (a string radius), not the document's.
      const stringRadius = { ...circle, properties: { ...circle.properties, radius: { type: 'string' } } };
      const scoped = {
        type: 'object',
        properties: { s: { $id: 'https://example.com/s', oneOf: [{ $ref: '#/$defs/c' }, { $ref: '#/$defs/s' }], $defs: { c: stringRadius, s: square } } },
        $defs: { c: circle, s: square },
      };
      expect(invalid(scoped, { s: { kind: 'circle', radius: -1 } })).toEqual([{ path: 's', problems: ['must match exactly one of the allowed shapes'] }]);
    });
  });

  describe("a union's trials told from what is beside it, and its discriminators read from the schema", () => {
    const invalid = (schema: Record<string, unknown>, value: unknown) => ValueGate.build(compiler, schema, 'test gate').check(value)?.invalid;
    const kind = (value: string, properties: Record<string, unknown> = {}, required: string[] = []) => ({
      type: 'object',
      properties: { kind: { type: 'string', const: value }, ...properties },
      required: ['kind', ...required],
    });
    // zod's `A.and(z.discriminatedUnion(...))`: ajv checks the first member before the union at the same place.
    const named = { type: 'object', properties: { name: { type: 'string' } } };
    const sized = kind('b', { size: { type: 'number' } });
    /** A tool schema of one property `x`, perhaps with definitions. */
    const atX = (x: unknown, $defs?: Record<string, unknown>) => ({ type: 'object', properties: { x }, ...($defs && { $defs }) });

    it('names what a keyword checked before a union found, beside the branch the value picks', () => {
      const schema = { type: 'object', properties: { x: { allOf: [named, { oneOf: [kind('a'), sized] }] } } };
      expect(invalid(schema, { x: { name: 5, kind: 'b', size: 'big' } })).toEqual([
        { path: 'x.name', problems: ['must be a string'] },
        { path: 'x.size', problems: ['must be a number'] },
      ]);
      // A const beside the union, and an anyOf beside a oneOf.
      const beside = { type: 'object', properties: { x: { not: { required: ['gone'] }, oneOf: [kind('a'), sized] } } };
      expect(invalid(beside, { x: { gone: 1, kind: 'b', size: 'big' } })).toEqual([
        { path: 'x', problems: ['must not match the excluded shape'] },
        { path: 'x.size', problems: ['must be a number'] },
      ]);
    });

    it('does so where the union has $ref branches, or branches holding one (its trials counted)', () => {
      const schema = {
        type: 'object',
        properties: { x: { allOf: [{ type: 'object', properties: { name: { $ref: '#/$defs/Text' } } }, { anyOf: [{ $ref: '#/$defs/A' }, sized] }] } },
        $defs: { Text: { type: 'string' }, A: kind('a') },
      };
      expect(invalid(schema, { x: { name: 5, kind: 'b', size: 'big' } })).toEqual([
        { path: 'x.name', problems: ['must be a string'] },
        { path: 'x.size', problems: ['must be a number'] },
      ]);
    });

    it("tells a union nested in a counted union's branch written in place from a keyword beside it, as in an exact one", () => {
      const v = { type: 'string', anyOf: [{ const: 'p' }, { const: 'q' }] };
      const expected = [{ path: 'x.v', problems: ['must be a string', 'must be one of "p", "q"'] }];
      expect(invalid(atX({ anyOf: [kind('a'), kind('b', { v })] }), { x: { kind: 'b', v: 3 } })).toEqual(expected);
      // Branch b's errors read apart still know v's union is exact: its run does not take the `type` beside it.
      expect(invalid(atX({ anyOf: [{ $ref: '#/$defs/A' }, kind('b', { v })] }, { A: kind('a') }), { x: { kind: 'b', v: 3 } })).toEqual(expected);
    });

    it('checks a branch written in place that holds a $ref on its own, beside a $ref branch', () => {
      const schema = {
        type: 'object',
        properties: { x: { anyOf: [{ $ref: '#/$defs/R' }, kind('a', { p: { $ref: '#/$defs/Text' }, q: { $ref: '#/$defs/Text' } })] } },
        $defs: { Text: { type: 'string' }, R: kind('r') },
      };
      // Its two problems are at the referenced schema's path, which names no branch: the kind it admits is not refused.
      expect(invalid(schema, { x: { kind: 'a', p: 5, q: 6 } })).toEqual([
        { path: 'x.p', problems: ['must be a string'] },
        { path: 'x.q', problems: ['must be a string'] },
      ]);
      expect(invalid(schema, { x: { kind: 'q', p: 'text' } })).toEqual([{ path: 'x.kind', problems: ['must be one of "r", "a"'] }]);
    });

    it("checks a branch holding a $ref under draft-07 dependencies on its own (ajv applies them, at the $ref's paths)", () => {
      const b = { ...kind('b'), dependencies: { q: { $ref: '#/$defs/TextQ' }, r: ['n'] } };
      const a = kind('a', { n: { type: 'number' } });
      const $defs = { TextQ: { properties: { q: { type: 'string' } } }, A: a };
      // Its problem at `q` was taken for one beside the union, with a's kind as another.
      expect(invalid(atX({ anyOf: [a, b] }, $defs), { x: { kind: 'a', n: 's', q: 1 } })).toEqual([{ path: 'x.n', problems: ['must be a number'] }]);
      expect(invalid(atX({ anyOf: [{ $ref: '#/$defs/A' }, b] }, $defs), { x: { kind: 'a', n: 's', q: 1 } })).toEqual([{ path: 'x.n', problems: ['must be a number'] }]);
      expect(invalid(atX({ anyOf: [a, b] }, $defs), { x: { kind: 'b', r: 1, q: 1 } })).toEqual([
        { path: 'x', problems: ['must also have "n" when "r" is present'] },
        { path: 'x.q', problems: ['must be a string'] },
      ]);
    });

    it('reads as a discriminator only a property every branch fixes to values of its own', () => {
      const prioritised = kind('a', { priority: { enum: [1, 2] } });
      const schema = { type: 'object', properties: { x: { anyOf: [prioritised, { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }] } } };
      // The one branch the value's kind names: its priority, not the other branch's missing name.
      expect(invalid(schema, { x: { kind: 'a', priority: 9 } })).toEqual([{ path: 'x.priority', problems: ['must be one of 1, 2'] }]);
      // An enum every branch shares is a field: a bad value there rules no branch out.
      const shared = { type: 'object', properties: { x: { oneOf: [prioritised, kind('b', { priority: { enum: [1, 2] } })] } } };
      expect(invalid(shared, { x: { kind: 'b', priority: 9 } })).toEqual([{ path: 'x.priority', problems: ['must be one of 1, 2'] }]);
      // A branch that takes no object (zod's `.nullable()`) fixes nothing and is left out; one fixing its kind through
      // an allOf member counts.
      const nullable = { type: 'object', properties: { x: { anyOf: [{ allOf: [kind('a')] }, sized, { type: 'null' }] } } };
      expect(invalid(nullable, { x: { kind: 'c' } })).toEqual([{ path: 'x.kind', problems: ['must be one of "a", "b"'] }]);
    });

    // zod's nested and nullable discriminated unions, and its unions of literals, as z.toJSONSchema writes them.
    const typed = (type: string, properties: Record<string, unknown>, required: string[]) => ({
      type: 'object',
      properties: { type: { type: 'string', const: type }, ...properties },
      required: ['type', ...required],
    });
    const click = typed('click', { x: { type: 'number' }, y: { type: 'number' } }, ['x', 'y']);
    const keys = { oneOf: [typed('key_down', { key: { type: 'string' } }, ['key']), typed('key_up', { key: { type: 'string' } }, ['key'])] };
    const eventOf = (event: unknown) => ({ type: 'object', properties: { event } });

    it('reads a branch that is itself a union through its branches: ruled out, of another type, or picked', () => {
      const nested = eventOf({ oneOf: [click, keys] });
      expect(invalid(nested, { event: { type: 'click', x: 1 } })).toEqual([{ path: 'event', problems: ['missing required property "y"'] }]);
      expect(invalid(nested, { event: { type: 'scroll' } })).toEqual([{ path: 'event.type', problems: ['must be one of "click", "key_down", "key_up"'] }]);
      expect(invalid(nested, { event: { type: 'key_up', key: 5 } })).toEqual([{ path: 'event.key', problems: ['must be a string'] }]);
      // The inner union discriminates by a property of its own: its branch is still named by it.
      const sub = (subtype: string) => ({ ...typed('key', { subtype: { type: 'string', const: subtype }, key: { type: 'string' } }, ['subtype', 'key']) });
      const bySubtype = eventOf({ oneOf: [click, { oneOf: [sub('down'), sub('up')] }] });
      expect(invalid(bySubtype, { event: { type: 'key', subtype: 'press', key: 'a' } })).toEqual([{ path: 'event.subtype', problems: ['must be one of "down", "up"'] }]);
      // Nullable, and beside a string: the types offered are every branch's.
      const nullable = eventOf({ anyOf: [{ oneOf: [click, keys] }, { type: 'null' }] });
      expect(invalid(nullable, { event: 5 })).toEqual([{ path: 'event', problems: ['must be an object or null'] }]);
      expect(invalid(nullable, { event: { type: 'scroll' } })).toEqual([{ path: 'event.type', problems: ['must be one of "click", "key_down", "key_up"'] }]);
      expect(invalid(eventOf({ anyOf: [{ type: 'string' }, { oneOf: [click, keys] }] }), { event: 5 })).toEqual([
        { path: 'event', problems: ['must be a string or an object'] },
      ]);
    });

    it("never names another branch's problem that a nested union's run took as its own", () => {
      // A closed `$ref` branch beside a nested union of `$ref`s: ajv reports the closed branch's errors just before the
      // nested union's trials, at or below its place.
      const schema = {
        type: 'object',
        properties: { id: { $ref: '#/$defs/V3' } },
        $defs: {
          V0: { type: 'object', properties: { note: { type: 'null' } }, additionalProperties: false },
          V1: kind('circle'),
          V2: kind('image', { size: { type: 'string' } }, ['size']),
          V3: { oneOf: [{ $ref: '#/$defs/V0' }, { oneOf: [{ $ref: '#/$defs/V1' }, { $ref: '#/$defs/V2' }] }] },
        },
      };
      const refused = invalid(schema, { id: { kind: 'square', size: 'big' } });
      expect(refused?.flatMap((entry) => entry.problems)).not.toContain('is not an allowed property');
      expect(refused).toEqual([{ path: 'id', problems: ['must match exactly one of the allowed shapes'] }]);
    });

    it('finds a union reached through a chain of bare $refs, which ajv spells from the first one', () => {
      // zod-to-json-schema's path ref to a property that is itself a $ref: ajv reports `#/properties/note/allOf/1/anyOf`.
      const item = { allOf: [{ type: 'object', properties: { mode: { type: 'object', additionalProperties: { type: 'object' } } } }, { oneOf: [kind('a'), sized] }] };
      const schema = { type: 'object', properties: { note: { $ref: '#/definitions/Item' }, again: { $ref: '#/properties/note' } }, definitions: { Item: item } };
      expect(invalid(schema, { again: { mode: { x: 1 }, kind: 'b', size: 'big' } })).toEqual([
        { path: 'again.mode.x', problems: ['must be an object'] },
        { path: 'again.size', problems: ['must be a number'] },
      ]);
      // A chain of three: followed to its end, however long.
      const longer = { ...schema, properties: { ...schema.properties, third: { $ref: '#/properties/again' } } };
      expect(invalid(longer, { third: { kind: 'b', size: 'big' } })).toEqual([{ path: 'third.size', problems: ['must be a number'] }]);
      // A union of $refs so reached holds references: ajv compiles it on its own, and its paths start again at `#`.
      const refs = {
        type: 'object',
        properties: { note: { $ref: '#/$defs/U' }, again: { $ref: '#/properties/note' } },
        $defs: { U: { oneOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] }, A: kind('a'), B: sized },
      };
      expect(invalid(refs, { again: { kind: 'b', size: 'big' } })).toEqual([{ path: 'again.size', problems: ['must be a number'] }]);
    });

    it("never names a $ref branch's problem where a union nested in another branch took a third's errors into its run", () => {
      // C's `when` union holds a reference, so its run is bounded by place alone: it took branch b's errors at
      // `x.when.*` (ajv reports them just before C's), and A's came to look like a keyword's beside the outer union.
      const schema = {
        type: 'object',
        properties: { x: { anyOf: [{ $ref: '#/$defs/A' }, kind('b', { when: { type: 'object', additionalProperties: { const: 42 } } }), { $ref: '#/$defs/C' }] } },
        $defs: {
          A: { ...kind('a', {}, ['id']), additionalProperties: false },
          C: kind('c', { when: { anyOf: [{ type: 'object', properties: { id: { type: 'object' } }, required: ['id'] }, { $ref: '#/$defs/T' }] } }, ['when']),
          T: { type: 'object', properties: { id: { $ref: '#/$defs/Obj' } }, required: ['kind'] },
          Obj: { type: 'object' },
        },
      };
      expect(invalid(schema, { x: { kind: 'c', when: { id: 1.5 } } })).toEqual([{ path: 'x.when.id', problems: ['must be an object'] }]);
    });

    it('names the values of a union of literals, and the types of its other branches', () => {
      const literal = (value: unknown) => ({ type: typeof value === 'number' ? 'number' : 'string', const: value });
      const of = (v: unknown) => ({ type: 'object', properties: { v } });
      expect(invalid(of({ anyOf: [literal('asc'), literal('desc')] }), { v: 'ascending' })).toEqual([{ path: 'v', problems: ['must be one of "asc", "desc"'] }]);
      expect(invalid(of({ anyOf: [literal(1), literal(2), literal('latest')] }), { v: '1' })).toEqual([{ path: 'v', problems: ['must be one of 1, 2, "latest"'] }]);
      const autoOrSeconds = of({
        anyOf: [
          { type: 'string', enum: ['auto', 'never'] },
          { type: 'integer', minimum: 1 },
        ],
      });
      expect(invalid(autoOrSeconds, { v: '30' })).toEqual([{ path: 'v', problems: ['must be one of "auto", "never", or an integer'] }]);
      // A value of no branch's type is still told the literals, not only their type.
      expect(invalid(autoOrSeconds, { v: true })).toEqual([{ path: 'v', problems: ['must be one of "auto", "never", or an integer'] }]);
      const orFlag = of({ anyOf: [{ type: 'string', enum: ['auto', 'never'] }, { type: 'integer' }, { type: 'boolean' }] });
      expect(invalid(orFlag, { v: '30' })).toEqual([{ path: 'v', problems: ['must be one of "auto", "never", or an integer or a boolean'] }]);
      // A branch the value is of the type of, failing otherwise, is the one meant.
      expect(invalid(autoOrSeconds, { v: 0 })).toEqual([{ path: 'v', problems: ['must be >= 1'] }]);
    });

    it('names the types a field takes where the branches differ only by its type, else stands for them', () => {
      const field = (type: string, more: Record<string, unknown> = {}) => ({ type: 'object', properties: { id: { type }, ...more }, required: ['id'] });
      expect(invalid(atX({ anyOf: [field('string'), field('number')] }), { x: { id: true } })).toEqual([{ path: 'x.id', problems: ['must be a string or a number'] }]);
      expect(invalid(atX({ oneOf: [{ $ref: '#/$defs/S' }, { $ref: '#/$defs/I' }] }, { S: field('string'), I: field('integer') }), { x: { id: 1.5 } })).toEqual([
        { path: 'x.id', problems: ['must be a string or an integer'] },
      ]);
      const deep = (type: string) => ({ type: 'object', properties: { a: { type: 'object', properties: { b: { type } } } } });
      // Below a union, where no walk of the schema can say whether the property is optional: no word on null.
      expect(invalid(atX({ anyOf: [deep('string'), deep('boolean')] }), { x: { a: { b: null } } })).toEqual([{ path: 'x.a.b', problems: ['must be a string or a boolean'] }]);
      // A branch allowing several types names each once.
      const nullable = (type: string) => ({ type: 'object', properties: { id: { type: [type, 'null'] } }, required: ['id'] });
      expect(invalid(atX({ anyOf: [nullable('string'), nullable('number')] }), { x: { id: true } })).toEqual([
        { path: 'x.id', problems: ['must be a string or null or a number'] },
      ]);
      // Failing at two places, a branch is not told apart by one field.
      const twice = atX({ anyOf: [field('string', { n: { type: 'number' } }), field('number')] });
      expect(invalid(twice, { x: { id: true, n: 'no' } })).toEqual([{ path: 'x', problems: ['must match at least one of the allowed shapes'] }]);
    });

    describe('a union of strict objects sent the properties of several', () => {
      const MIXED = "belongs to another allowed shape than a property sent beside it; send one shape's properties only";
      const strict = (properties: Record<string, unknown>, required = Object.keys(properties), closing = 'additionalProperties') => ({
        type: 'object',
        properties,
        required,
        [closing]: false,
      });
      const byId = strict({ id: { type: 'string' } });
      const byUrl = strict({ url: { type: 'string' } });

      it('names each property as belonging to another shape than one beside it, whichever keyword joins them', () => {
        for (const keyword of ['anyOf', 'oneOf'])
          expect(invalid(atX({ [keyword]: [byId, byUrl] }), { x: { id: 'a', url: 'b' } })).toEqual([
            { path: 'x.id', problems: [MIXED] },
            { path: 'x.url', problems: [MIXED] },
          ]);
        // zod's registered schemas: the branches are $refs, checked on their own.
        expect(invalid(atX({ oneOf: [{ $ref: '#/$defs/I' }, { $ref: '#/$defs/U' }] }, { I: byId, U: byUrl }), { x: { id: 'a', url: 'b' } })).toEqual([
          { path: 'x.id', problems: [MIXED] },
          { path: 'x.url', problems: [MIXED] },
        ]);
        const unevaluated = atX({ anyOf: [strict({ id: {} }, ['id'], 'unevaluatedProperties'), strict({ url: {} }, ['url'], 'unevaluatedProperties')] });
        expect(invalid(unevaluated, { x: { id: 'a', url: 'b' } })).toEqual([
          { path: 'x.id', problems: [MIXED] },
          { path: 'x.url', problems: [MIXED] },
        ]);
      });

      it('names a property no shape takes as not allowed, and only it where dropping it leaves a shape matched', () => {
        expect(invalid(atX({ anyOf: [byId, byUrl] }), { x: { id: 'a', url: 'b', z: 1 } })).toEqual([
          { path: 'x.id', problems: [MIXED] },
          { path: 'x.url', problems: [MIXED] },
          { path: 'x.z', problems: ['is not an allowed property'] },
        ]);
        const named = strict({ id: { type: 'string' }, name: { type: 'string' } }, ['id']);
        const maybeUrl = strict({ url: { type: 'string' } }, []);
        expect(invalid(atX({ anyOf: [named, maybeUrl] }), { x: { id: 'a', name: 'n', z: 1 } })).toEqual([{ path: 'x.z', problems: ['is not an allowed property'] }]);
      });

      it('reads the shapes left where a third branch is ruled out by its type', () => {
        expect(invalid(atX({ anyOf: [byId, byUrl, { type: 'string' }] }), { x: { id: 'a', url: 'b' } })).toEqual([
          { path: 'x.id', problems: [MIXED] },
          { path: 'x.url', problems: [MIXED] },
        ]);
      });

      it('leaves the union standing where the shapes refuse a property deeper than the union, not at it', () => {
        const inner = (name: string) => ({ type: 'object', properties: { inner: { type: 'object', properties: { [name]: {} }, additionalProperties: false } } });
        expect(invalid(atX({ anyOf: [inner('a'), inner('b')] }), { x: { inner: { c: 1 } } })).toEqual([
          { path: 'x', problems: ['must match at least one of the allowed shapes'] },
        ]);
      });

      it('leaves the union standing for its trials where a shape fails otherwise too, or the check stopped at first problems', () => {
        expect(invalid(atX({ anyOf: [byId, byUrl] }), { x: { id: 5, url: 'b' } })).toEqual([{ path: 'x', problems: ['must match at least one of the allowed shapes'] }]);
        const big = { x: { id: 'a', url: 'b' }, filler: Array.from({ length: DETAILED_CHECK_MAX_VALUES }, () => 0) };
        expect(invalid({ type: 'object', properties: { x: { anyOf: [byId, byUrl] }, filler: {} } }, big)).toEqual([
          { path: 'x', problems: ['must match at least one of the allowed shapes'] },
        ]);
      });
    });

    it('finds a union below prefixItems and patternProperties to check its $ref branches', () => {
      const union = { oneOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] };
      const schema = {
        type: 'object',
        properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, union] }, byName: { type: 'object', patternProperties: { '^[a-z]+$': union } } },
        $defs: { A: kind('a'), B: sized },
      };
      expect(invalid(schema, { pair: ['p', { kind: 'b', size: 'big' }], byName: { one: { kind: 'b', size: 'big' } } })).toEqual([
        { path: 'byName.one.size', problems: ['must be a number'] },
        { path: 'pair[1].size', problems: ['must be a number'] },
      ]);
    });
  });

  describe('where each problem is', () => {
    it('at a key holding "~", "/" or leading zeros, spelled as the key itself', () => {
      const odd = ValueGate.build(
        compiler,
        { type: 'object', properties: { '~1': { type: 'integer' }, '~01': { type: 'integer' }, 'a/b': { type: 'integer' }, '007': { type: 'integer' } } },
        'test gate',
      );
      expect(odd.check({ '~1': 'x', '~01': 'x', 'a/b': 'x', '007': 'x' })?.invalid).toEqual([
        { path: '["007"]', problems: ['must be an integer'] },
        { path: '["a/b"]', problems: ['must be an integer'] },
        { path: '["~01"]', problems: ['must be an integer'] },
        { path: '["~1"]', problems: ['must be an integer'] },
      ]);
    });

    it('a failing anyOf stands for its own trials only, not for a problem at a sibling whose name it prefixes', () => {
      const siblings = ValueGate.build(
        compiler,
        { type: 'object', properties: { ab: { type: 'integer' }, a: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } },
        'test gate',
      );
      expect(siblings.check({ ab: 'x', a: true })?.invalid).toEqual([
        { path: 'a', problems: ['must be a string or an integer'] },
        { path: 'ab', problems: ['must be an integer'] },
      ]);
    });

    it('names a problem once where two schemas find it at one location', () => {
      const twice = ValueGate.build(compiler, { type: 'object', properties: { name: { allOf: [{ type: 'string' }, { type: 'string', minLength: 1 }] } } }, 'test gate');
      expect(twice.check({ name: 5 })?.invalid).toEqual([{ path: 'name', problems: ['must be a string'] }]);
    });
  });

  it('is built at module init: an unknown format is refused there', () => {
    expect(() => ValueGate.build(compiler, { type: 'object', properties: { a: { type: 'string', format: 'colour' } } }, 'tool "t", action "a"')).toThrow(
      McpConfigurationError,
    );
  });
});

// ajv reads a declared property as `data[name]`: on a value without it, an inherited member stands in unless the
// schema is compiled to read own properties only (`namesInheritedMember`). `__proto__`, whose value ajv never checks,
// is refused at module init instead.
const INHERITED = Object.getOwnPropertyNames(Object.prototype);

it('refuses a property named __proto__ at module init, the one inherited name ajv never checks', () => {
  expect(INHERITED).toContain('__proto__');
  expect(() => ValueGate.build(new SchemaCompiler(), JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'), 'proto')).toThrow(/"__proto__"/);
});

describe.each(INHERITED.filter((name) => name !== '__proto__'))('a property named like the inherited member "%s"', (name) => {
  const items = { type: 'array', items: { type: 'integer' } }; // unbounded: large values meet the first-problem check
  const optional = ValueGate.build(new SchemaCompiler(), { type: 'object', properties: { [name]: { type: 'string' }, items } }, 'optional');
  const required = ValueGate.build(new SchemaCompiler(), { type: 'object', properties: { [name]: { type: 'string' }, items }, required: [name] }, 'required');
  const data = (json: string) => JSON.parse(json) as Record<string, unknown>;
  const large = `[${Array.from({ length: DETAILED_CHECK_MAX_VALUES }, () => '1').join(',')}]`;

  it('is not read from the prototype when the value lacks it: optional, it passes; required, it is missing', () => {
    expect(optional.check(data('{}'))).toBeUndefined();
    expect(required.check(data('{}'))?.invalid).toEqual([{ path: '', problems: [`missing required property ${JSON.stringify(name)}`] }]);
    expect(required.check(data(`{${JSON.stringify(name)}: "x"}`))).toBeUndefined();
  });

  it('is checked as sent when present', () => {
    expect(optional.check(data(`{${JSON.stringify(name)}: 5}`))?.invalid.map((v) => v.problems)).toEqual([['must be a string']]);
  });

  it('is read the same way by the first-problem check of a value past the detailed-check bound', () => {
    expect(optional.check(data(`{"items": ${large}}`))).toBeUndefined();
    expect(required.check(data(`{"items": ${large}}`))).toEqual({
      invalid_count: 1,
      invalid: [{ path: '', problems: [`missing required property ${JSON.stringify(name)}`] }],
      first_only: true,
    });
  });
});

import { describe, expect, it } from '@jest/globals';

import { callerValueAjv } from '../../lib/validation/caller-value-ajv.js';
import { describeSchemaErrors, type SchemaProblem } from '../../lib/validation/schema-problems.js';

/** The problems a schema's check finds in `value`. */
function problemsOf(schema: Record<string, unknown>, value: unknown): SchemaProblem[] {
  const check = callerValueAjv().compile(schema);
  expect(check(value)).toBe(false);
  return describeSchemaErrors(check.errors);
}

const circle = { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number', exclusiveMinimum: 0 } }, required: ['kind', 'radius'] };
const square = { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: ['kind', 'side'] };

describe('describeSchemaErrors on a failing union', () => {
  it.each(['oneOf', 'anyOf'])('words a %s by the one branch its discriminator (a const) picks', (union) => {
    expect(problemsOf({ [union]: [circle, square] }, { kind: 'circle', radius: -1 })).toEqual([{ path: ['radius'], problem: 'must be > 0' }]);
  });

  it('picks by an enum as by a const, and words a nested union by its own pick', () => {
    const dot = { type: 'object', properties: { kind: { enum: ['dot', 'point'] }, at: { oneOf: [circle, square] } }, required: ['kind'] };
    expect(problemsOf({ oneOf: [dot, square] }, { kind: 'point', at: { kind: 'square', side: 'x' } })).toEqual([{ path: ['at', 'side'], problem: 'must be a number' }]);
  });

  it.each(['oneOf', 'anyOf'])('words a %s whose discriminator no branch admits at that property, naming the values the branches admit', (union) => {
    expect(problemsOf({ [union]: [circle, square] }, { kind: 'triangle', side: 'x' })).toEqual([{ path: ['kind'], problem: 'must be one of "circle", "square"' }]);
    // Consts and enums alike, each value once, in the branches' order; one admitted value reads as that value.
    const dot = { type: 'object', properties: { kind: { enum: ['dot', 'circle'] } }, required: ['kind'] };
    expect(problemsOf({ [union]: [circle, dot, square] }, { kind: 7 })).toEqual([{ path: ['kind'], problem: 'must be one of "circle", "dot", "square"' }]);
    expect(problemsOf({ [union]: [circle, { ...circle, properties: { ...circle.properties, radius: { type: 'integer' } } }] }, { kind: 'dot' })).toEqual([
      { path: ['kind'], problem: 'must be "circle"' },
    ]);
    // Branches ruled out at two properties are worded at the first, with that property's values only.
    const versioned = (kind: string) => ({ type: 'object', properties: { kind: { const: kind }, version: { const: 2 } } });
    expect(problemsOf({ [union]: [versioned('circle'), versioned('square')] }, { kind: 'dot', version: 1 })).toEqual([
      { path: ['kind'], problem: 'must be one of "circle", "square"' },
    ]);
  });

  it("words a union that is a oneOf's branch by its own trials, not the oneOf's earlier branches", () => {
    const named = (kind: string) => ({ type: 'object', properties: { kind: { const: kind }, x: { type: 'string' } }, required: ['kind'] });
    expect(problemsOf({ oneOf: [named('a'), { anyOf: [named('b'), named('c')] }] }, { kind: 'b', x: 1 })).toEqual([{ path: ['x'], problem: 'must be a string' }]);
  });

  it('takes a const below a property of the branch for no discriminator: the branch it sits in is picked', () => {
    const child = { type: 'object', properties: { kind: { const: 'x' } } };
    const parent = { type: 'object', properties: { kind: { const: 'a' }, child }, required: ['kind'] };
    expect(problemsOf({ anyOf: [parent, square] }, { kind: 'a', child: { kind: 'y' } })).toEqual([{ path: ['child', 'kind'], problem: 'must be "x"' }]);
  });

  it('stands for its branches when no discriminator rules them all out: branches ruled out at different properties or not at all', () => {
    const sized = { type: 'object', properties: { size: { const: 'large' } }, required: ['size'] };
    expect(problemsOf({ oneOf: [circle, sized] }, { kind: 'dot', size: 'small' })).toEqual([{ path: [], problem: 'must match exactly one of the allowed shapes' }]);
    // Without the schema's facts, a branch that is a union is not ruled out by consts its own branches fail.
    const labelled = { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] };
    expect(problemsOf({ anyOf: [{ anyOf: [circle, square] }, labelled] }, { kind: 'dot', n: 1 })).toEqual([
      { path: [], problem: 'must match at least one of the allowed shapes' },
    ]);
    // Keys an enum refuses rule out no branch: the object is not to be one of those values.
    const keyed = (...keys: string[]) => ({ type: 'object', propertyNames: { enum: keys } });
    expect(problemsOf({ anyOf: [keyed('a', 'b'), keyed('c')] }, { z: 1 })).toEqual([{ path: [], problem: 'must match at least one of the allowed shapes' }]);
    const needs = (key: string) => ({ type: 'object', required: [key] });
    // The discriminator rules the circle out; the branches left each miss a property: those are the alternatives.
    expect(problemsOf({ anyOf: [circle, needs('x'), needs('y')] }, { kind: 'dot' })).toEqual([{ path: [], problem: 'missing required property "x" or "y"' }]);
  });

  it('names the JSON types the branches take when the value is of none of them, each once', () => {
    expect(problemsOf({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, 1.5)).toEqual([{ path: [], problem: 'must be a string or an integer' }]);
    expect(problemsOf({ oneOf: [{ type: ['string', 'null'] }, { type: 'integer', minimum: 0 }, { type: 'string' }] }, true)).toEqual([
      { path: [], problem: 'must be a string or null or an integer' },
    ]);
    // A key of another type than its propertyNames takes is not the value of another type.
    const keysOf = (type: string) => ({ type: 'object', propertyNames: { type } });
    expect(problemsOf({ anyOf: [keysOf('null'), keysOf('number')] }, { a: 1 })).toEqual([{ path: [], problem: 'must match at least one of the allowed shapes' }]);
    // Two branches of any type left: the value's type is not the problem.
    expect(problemsOf({ anyOf: [{ type: 'string' }, { minimum: 5 }, { maximum: 0 }] }, 3)).toEqual([{ path: [], problem: 'must match at least one of the allowed shapes' }]);
  });

  it('stands for its branches when they are references and nothing checks them one by one (their errors name no branch)', () => {
    const schema = { $defs: { circle, square }, oneOf: [{ $ref: '#/$defs/circle' }, { $ref: '#/$defs/square' }] };
    expect(problemsOf(schema, { kind: 'circle', radius: -1 })).toEqual([{ path: [], problem: 'must match exactly one of the allowed shapes' }]);
  });

  it("picks the one branch of the value's JSON type when every other is ruled out by its type or discriminator", () => {
    // A nullable value (zod's .nullable()): the string branch's problem, not the union's.
    expect(problemsOf({ anyOf: [{ type: 'string', format: 'email' }, { type: 'null' }] }, 'x')).toEqual([
      { path: [], problem: 'must be a valid email, such as "name@example.com"' },
    ]);
    expect(problemsOf({ oneOf: [circle, square, { type: 'array' }] }, { kind: 'circle', radius: -1 })).toEqual([{ path: ['radius'], problem: 'must be > 0' }]);
    // A branch that is a union is of another type only when each of its own branches is.
    const nullableCode = { anyOf: [{ type: 'string', minLength: 3 }, { type: 'null' }] };
    expect(problemsOf({ anyOf: [nullableCode, { type: 'integer' }] }, 'x')).toEqual([{ path: [], problem: 'must have at least 3 character(s)' }]);
    // A union of one branch is worded by it.
    expect(problemsOf({ anyOf: [{ type: 'string', minLength: 2 }] }, 'x')).toEqual([{ path: [], problem: 'must have at least 2 character(s)' }]);
    // A branch of another type does not keep a discriminator no branch admits from being named.
    expect(problemsOf({ anyOf: [circle, { type: 'string' }, square] }, { kind: 'dot' })).toEqual([{ path: ['kind'], problem: 'must be one of "circle", "square"' }]);
  });

  it('picks, of branches nothing rules out, the only one whose required properties the value all has (a union of objects without a discriminator)', () => {
    const named = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const numbered = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] };
    expect(problemsOf({ anyOf: [named, numbered] }, { id: 'x' })).toEqual([{ path: ['id'], problem: 'must be an integer' }]);
    // Both complete: no pick; both missing one: no pick, the missing ones named as alternatives.
    expect(problemsOf({ anyOf: [named, numbered] }, { name: 1, id: 'x' })).toEqual([{ path: [], problem: 'must match at least one of the allowed shapes' }]);
    expect(problemsOf({ anyOf: [named, numbered] }, { title: 'x' })).toEqual([{ path: [], problem: 'missing required property "name" or "id"' }]);
    // What a property of the branch misses is not the branch's own: the branch is still complete.
    const described = { type: 'object', properties: { name: {}, meta: { type: 'object', required: ['x'] } }, required: ['name'] };
    expect(problemsOf({ anyOf: [described, numbered] }, { name: 'a', meta: {} })).toEqual([{ path: ['meta'], problem: 'missing required property "x"' }]);
    // A discriminator's pick stands, whatever the picked branch misses.
    expect(problemsOf({ oneOf: [circle, square] }, { kind: 'circle' })).toEqual([{ path: [], problem: 'missing required property "radius"' }]);
  });

  it('places the errors of reference branches the union lookup checks one by one, and picks among them as among any', () => {
    const schema = { $defs: { circle, square }, oneOf: [{ $ref: '#/$defs/circle' }, { $ref: '#/$defs/square' }, { type: 'string' }] };
    const check = callerValueAjv().compile(schema);
    const byBranch = [callerValueAjv().compile(circle), callerValueAjv().compile(square)];
    const described = (value: unknown) => {
      expect(check(value)).toBe(false);
      const unions: string[] = [];
      return {
        unions,
        problems: describeSchemaErrors(check.errors, (union) => {
          unions.push(`${union.keyword} at "${union.instancePath}"`);
          return { branchCount: 3, refTrials: new Map(byBranch.map((branch, i) => [i, (branch(value), branch.errors ?? [])])), counted: false };
        }),
      };
    };
    expect(described({ kind: 'circle', radius: -1 })).toEqual({ unions: ['oneOf at ""'], problems: [{ path: ['radius'], problem: 'must be > 0' }] });
    expect(described({ kind: 'dot' }).problems).toEqual([{ path: ['kind'], problem: 'must be one of "circle", "square"' }]);
    // Without an answer from the lookup, the union stands for its branches.
    expect(describeSchemaErrors(check.errors, () => undefined)).toEqual([{ path: [], problem: 'must match exactly one of the allowed shapes' }]);
  });

  it("words a recursive union (zod's recursive discriminated union) by the branch picked at each level, its nested trials kept together", () => {
    const node = {
      anyOf: [
        {
          type: 'object',
          properties: { op: { const: 'and' }, filters: { type: 'array', items: { $ref: '#/$defs/filter' } } },
          required: ['op', 'filters'],
          additionalProperties: false,
        },
        { type: 'object', properties: { op: { const: 'eq' }, field: { type: 'string' }, value: {} }, required: ['op', 'field', 'value'], additionalProperties: false },
      ],
    };
    const schema = { type: 'object', properties: { filter: { $ref: '#/$defs/filter' } }, $defs: { filter: node } };
    const nested = (leaf: Record<string, unknown>) => ({ filter: { op: 'and', filters: [{ op: 'and', filters: [leaf] }] } });
    expect(problemsOf(schema, nested({ op: 'eq', field: 1, value: 2 }))).toEqual([{ path: ['filter', 'filters', 0, 'filters', 0, 'field'], problem: 'must be a string' }]);
    expect(problemsOf(schema, nested({ op: 'or', field: 'a', value: 2 }))).toEqual([
      { path: ['filter', 'filters', 0, 'filters', 0, 'op'], problem: 'must be one of "and", "eq"' },
    ]);
  });

  it('places a reference branch by the order of the branches around it, where that decides', () => {
    const schema = { $defs: { square }, oneOf: [circle, { $ref: '#/$defs/square' }, { type: 'array' }] };
    expect(problemsOf(schema, { kind: 'square', side: 'x' })).toEqual([{ path: ['side'], problem: 'must be a number' }]);
    // A reference inside a branch, its error between two of that branch's own.
    const pair = { type: 'object', properties: { kind: { const: 'pair' }, a: { type: 'string' }, b: { $ref: '#/$defs/num' }, c: { type: 'string' } } };
    expect(problemsOf({ $defs: { num: { type: 'number' } }, anyOf: [pair, circle] }, { kind: 'pair', a: 1, b: 'x', c: 2 })).toEqual([
      { path: ['a'], problem: 'must be a string' },
      { path: ['b'], problem: 'must be a number' },
      { path: ['c'], problem: 'must be a string' },
    ]);
    // Two errors of the reference branch between branches 0 and 2: one branch or two, the order cannot tell.
    const colouredSquare = { ...square, required: ['kind', 'side', 'colour'] };
    expect(problemsOf({ ...schema, $defs: { square: colouredSquare } }, { kind: 'square', side: 'x' })).toEqual([
      { path: [], problem: 'must match exactly one of the allowed shapes' },
    ]);
    // After the last branch placed by its path, how many branches follow is not known.
    expect(problemsOf({ $defs: { square }, oneOf: [circle, { $ref: '#/$defs/square' }] }, { kind: 'square', side: 'x' })).toEqual([
      { path: [], problem: 'must match exactly one of the allowed shapes' },
    ]);
  });

  it("places what follows the last branch placed by its path when the lookup gives the union's branch count", () => {
    // A tree of strings: the recursion is the last branch, so its inner union's errors follow branch 0's.
    const tree = { anyOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#' } }] };
    const check = callerValueAjv().compile(tree);
    expect(check([['a', 1]])).toBe(false);
    const counted = (branchCount: number) => () => ({ branchCount, refTrials: new Map(), counted: false });
    expect(describeSchemaErrors(check.errors, counted(2))).toEqual([{ path: [0, 1], problem: 'must be a string or an array' }]);
    // Without the lookup, or with a count the errors do not fit, the union stands for its branches.
    const generic = [{ path: [], problem: 'must match at least one of the allowed shapes' }];
    expect(describeSchemaErrors(check.errors)).toEqual(generic);
    expect(describeSchemaErrors(check.errors, counted(4))).toEqual(generic);
  });

  it('words a union every branch of whose type requires a property the value lacks (a missing discriminator) by that property', () => {
    for (const union of ['oneOf', 'anyOf'])
      expect(problemsOf({ [union]: [circle, square] }, { radius: 1, side: 2 })).toEqual([{ path: [], problem: 'missing required property "kind"' }]);
    // A branch of another type is left aside; the properties every branch left requires are named together.
    const sized = (kind: object) => ({ ...kind, required: ['kind', 'size'] });
    expect(problemsOf({ anyOf: [sized(circle), sized(square), { type: 'null' }] }, {})).toEqual([{ path: [], problem: 'missing required properties "kind", "size"' }]);
    // Branches missing different properties: what each would need, as alternatives (each once, at most eight).
    const needs = (...keys: string[]) => ({ type: 'object', required: keys });
    expect(problemsOf({ anyOf: [needs('a'), needs('b'), needs('a')] }, {})).toEqual([{ path: [], problem: 'missing required property "a" or "b"' }]);
    expect(problemsOf({ oneOf: [needs('a', 'b'), needs('c')] }, {})).toEqual([
      { path: [], problem: 'missing the required properties of one of its shapes: ["a", "b"] or ["c"]' },
    ]);
    // A branch that is a union misses what each of its own branches misses.
    expect(problemsOf({ anyOf: [{ anyOf: [needs('a', 'x'), needs('a', 'y')] }, needs('b')] }, {})).toEqual([{ path: [], problem: 'missing required property "a" or "b"' }]);
    const nine = Array.from({ length: 9 }, (_, i) => needs(`p${i}`));
    expect(problemsOf({ anyOf: nine.slice(0, 8) }, {})).toEqual([
      { path: [], problem: 'missing required property "p0" or "p1" or "p2" or "p3" or "p4" or "p5" or "p6" or "p7"' },
    ]);
    expect(problemsOf({ anyOf: nine }, {})).toEqual([{ path: [], problem: 'must match at least one of the allowed shapes' }]);
    // A branch that has every property it requires, failing otherwise, leaves nothing to add.
    expect(problemsOf({ anyOf: [needs('a'), { ...needs('b'), properties: { b: { type: 'string' } } }] }, { b: 1 })).toEqual([{ path: ['b'], problem: 'must be a string' }]);
  });

  it('stands for its branches when a oneOf fails by matching several, and says it matched several', () => {
    expect(problemsOf({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 2)).toEqual([
      { path: [], problem: 'must match exactly one of the allowed shapes, not several (shapes 1 and 2 both match)' },
    ]);
    // The branch it fails is not the one meant; the shapes it matched are numbered from 1, as the schema lists them.
    expect(problemsOf({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'integer' }] }, 2)).toEqual([
      { path: [], problem: 'must match exactly one of the allowed shapes, not several (shapes 2 and 3 both match)' },
    ]);
    // Loose object shapes (no required property, none closed) that one property satisfies both: what a caller reads
    // when the schema, not its value, leaves no way to match one shape only.
    const loose = {
      oneOf: [
        { type: 'object', properties: { slack: { type: 'string' } } },
        { type: 'object', properties: { pager: { type: 'string' } } },
      ],
    };
    expect(problemsOf({ type: 'object', properties: { channel: loose } }, { channel: { slack: '#ops' } })).toEqual([
      { path: ['channel'], problem: 'must match exactly one of the allowed shapes, not several (shapes 1 and 2 both match)' },
    ]);
    // Matching none keeps the words it had.
    expect(problemsOf({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 'x')).toEqual([{ path: [], problem: 'must be a number or an integer' }]);
  });
});

describe('describeSchemaErrors on an object missing required properties', () => {
  it('names every property missing at one location in one problem, each once', () => {
    expect(problemsOf({ type: 'object', required: ['title', 'body', 'tags'] }, { tags: [] })).toEqual([{ path: [], problem: 'missing required properties "title", "body"' }]);
    // Required by two subschemas applying in place: still one problem, each property once.
    expect(problemsOf({ required: ['a', 'b'], allOf: [{ required: ['b', 'c'] }], properties: { n: { required: ['x'] } } }, { n: {} })).toEqual([
      { path: [], problem: 'missing required properties "b", "c", "a"' },
      { path: ['n'], problem: 'missing required property "x"' },
    ]);
    const many = Array.from({ length: 10 }, (_, i) => `p${i}`);
    expect(problemsOf({ required: many }, {})).toEqual([{ path: [], problem: 'missing required properties "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", … (10 in all)' }]);
  });

  it("joins what a union's branches all miss and a required beside the union into one problem", () => {
    const dot = { properties: { kind: { const: 'dot' } }, required: ['kind'] };
    const ring = { properties: { kind: { const: 'ring' }, r: { type: 'number' } }, required: ['kind', 'r'] };
    expect(problemsOf({ type: 'object', required: ['name'], anyOf: [dot, ring] }, {})).toEqual([{ path: [], problem: 'missing required properties "kind", "name"' }]);
    // A property both name is named once; another keyword's problem there stays its own.
    expect(problemsOf({ type: 'object', required: ['kind'], anyOf: [dot, ring] }, {})).toEqual([{ path: [], problem: 'missing required property "kind"' }]);
    expect(problemsOf({ type: 'object', minProperties: 3, required: ['a'] }, {})).toEqual([
      { path: [], problem: 'must have at least 3 propert(ies)' },
      { path: [], problem: 'missing required property "a"' },
    ]);
    // A picked branch's missing property joins too, and so does the alternatives wording, after the names.
    const shaped = { type: 'object', required: ['name'], oneOf: [{ properties: { kind: { const: 'dot' } }, required: ['kind', 'x'] }, ring] };
    expect(problemsOf(shaped, { kind: 'dot' })).toEqual([{ path: [], problem: 'missing required properties "x", "name"' }]);
    expect(problemsOf({ required: ['name'], anyOf: [{ required: ['id'] }, { required: ['url'] }] }, {})).toEqual([
      { path: [], problem: 'missing required property "name"; also missing required property "id" or "url"' },
    ]);
  });

  it('leaves out a union whose one branch needs only what is already named: sending that satisfies it', () => {
    // The conformance suite's 2020-12 tool: its `then` requires "phone", and a union beside it "phone" or "email".
    const contact = {
      type: 'object',
      properties: { contactMethod: { enum: ['phone', 'email'] }, phone: { type: 'string' }, email: { type: 'string' } },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
    };
    expect(problemsOf(contact, { contactMethod: 'phone' })).toEqual([
      { path: [], problem: 'missing required property "phone"' },
      { path: [], problem: 'must match the "then" schema (it matches the "if" schema)' },
    ]);
    // A branch needing a property not yet named keeps the union's wording, as does one of several properties.
    expect(problemsOf({ required: ['id'], anyOf: [{ required: ['id', 'rev'] }, { required: ['url'] }] }, {})).toEqual([
      { path: [], problem: 'missing required property "id"; also missing the required properties of one of its shapes: ["id", "rev"] or ["url"]' },
    ]);
    expect(problemsOf({ required: ['id', 'rev'], anyOf: [{ required: ['id', 'rev'] }, { required: ['url'] }] }, {})).toEqual([
      { path: [], problem: 'missing required properties "id", "rev"' },
    ]);
  });
});

describe('describeSchemaErrors on a value failing a pattern', () => {
  it('quotes the pattern as the schema writes it, backslashes unescaped', () => {
    expect(problemsOf({ type: 'string', pattern: '^\\d{3}\\.\\w$' }, 'x')).toEqual([{ path: [], problem: 'must match the pattern "^\\d{3}\\.\\w$"' }]);
  });
});

describe('describeSchemaErrors on a value failing a pattern beside other keywords', () => {
  it('lists a location’s pattern problem after its others, the locations in the order they first appear', () => {
    const schema = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[a-z]+$' }, mail: { type: 'string', pattern: '^[a-z]+@[a-z.]+$', format: 'email', minLength: 5 } },
    };
    expect(problemsOf(schema, { code: 'A1', mail: 'x' })).toEqual([
      { path: ['code'], problem: 'must match the pattern "^[a-z]+$"' },
      { path: ['mail'], problem: 'must have at least 5 character(s)' },
      { path: ['mail'], problem: 'must be a valid email, such as "name@example.com"' },
      { path: ['mail'], problem: 'must match the pattern "^[a-z]+@[a-z.]+$"' },
    ]);
  });
});

describe("describeSchemaErrors given the caller's value", () => {
  const schema = { type: 'object', properties: { level: { enum: ['debug', 'info', 'warning', 'error'] }, tags: { type: 'array', items: { enum: ['red', 'green'] } } } };
  const sent = { level: 'Warning', tags: ['GREEN', 'blue'] };
  const failed = (): Parameters<typeof describeSchemaErrors>[0] => {
    const check = callerValueAjv().compile(schema);
    expect(check(sent)).toBe(false);
    return check.errors;
  };

  it('offers each misspelled enum value the allowed one it nearly spells', () => {
    expect(describeSchemaErrors(failed(), undefined, undefined, false, { value: sent })).toEqual([
      { path: ['level'], problem: 'must be one of "debug", "info", "warning", "error" (did you mean "warning"?)' },
      { path: ['tags', 0], problem: 'must be one of "red", "green" (did you mean "green"?)' },
      { path: ['tags', 1], problem: 'must be one of "red", "green"' },
    ]);
  });

  it('names an object or array sent as its JSON text by its opening bracket, among the types the schema takes', () => {
    const either = { type: 'object', properties: { x: { type: ['array', 'object'] }, y: { type: 'array' } } };
    const check = callerValueAjv().compile(either);
    const value = { x: ' {"a": 1}', y: '{"a": 1}' };
    expect(check(value)).toBe(false);
    expect(describeSchemaErrors(check.errors, undefined, undefined, false, { value }).map((p) => p.problem)).toEqual([
      'must be an array or an object, not a string of JSON (send the object itself)',
      'must be an array',
    ]);
  });

  it('offers a property refused by its closed object the one the schema names that it nearly spells, in a union and behind a $ref', () => {
    const email = { type: 'object', properties: { kind: { const: 'email' }, address: { type: 'string' }, subject: { type: 'string' } }, additionalProperties: false };
    const closed = {
      type: 'object',
      properties: { channel: { oneOf: [email, { ...email, properties: { kind: { const: 'sms' }, phoneNumber: { type: 'string' } } }] }, target: { $ref: '#/$defs/target' } },
      $defs: { target: { type: 'object', properties: { userId: { type: 'string' } }, unevaluatedProperties: false } },
    };
    const check = callerValueAjv().compile(closed);
    const problems = (value: unknown) => {
      expect(check(value)).toBe(false);
      return describeSchemaErrors(check.errors, undefined, undefined, false, { value, schema: { document: closed, root: closed } });
    };
    expect(problems({ channel: { kind: 'email', adress: 'a', subjct: 's' }, target: { user_id: 'u' } })).toEqual([
      { path: ['channel', 'adress'], problem: 'is not an allowed property (did you mean "address"?)' },
      { path: ['channel', 'subjct'], problem: 'is not an allowed property (did you mean "subject"?)' },
      { path: ['target', 'user_id'], problem: 'is not an allowed property (did you mean "userId"?)' },
    ]);
    // None for a property the object already holds, for one two refused properties both nearly spell, or far from all.
    expect(problems({ target: { userId: 'u', userid: 'u' } })).toEqual([{ path: ['target', 'userid'], problem: 'is not an allowed property' }]);
    expect(problems({ target: { userid: 'u', user_id: 'u' } }).map((p) => p.problem)).toEqual(['is not an allowed property', 'is not an allowed property']);
    expect(problems({ target: { zzzzzz: 'u' } })).toEqual([{ path: ['target', 'zzzzzz'], problem: 'is not an allowed property' }]);
    // None where the schema found does not account for every key the object holds (one a pattern admits): it may not be
    // the schema that refused the property.
    const patterned = { type: 'object', properties: { address: { type: 'string' } }, patternProperties: { '^x-': {} }, additionalProperties: false };
    const both = { type: 'object', properties: { c: { anyOf: [patterned, { type: 'string' }] } } };
    const check2 = callerValueAjv().compile(both);
    const sent2 = { c: { adress: 'a', 'x-note': 'n' } };
    expect(check2(sent2)).toBe(false);
    expect(describeSchemaErrors(check2.errors, undefined, undefined, false, { value: sent2, schema: { document: both, root: both } })).toEqual([
      { path: ['c', 'adress'], problem: 'is not an allowed property' },
    ]);
  });

  /** The problems `schema`'s check finds in `value`, given the caller's value. */
  const problemsSent = (schema: Record<string, unknown>, value: unknown): SchemaProblem[] => {
    const check = callerValueAjv().compile(schema);
    expect(check(value)).toBe(false);
    return describeSchemaErrors(check.errors, undefined, undefined, false, { value, schema: { document: schema, root: schema } });
  };
  const NULL_PROPERTY = ', not null (leave out an optional property rather than send null)';

  it('says null sent as a property is not the type it must be, and to leave the property out', () => {
    const schema = { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' }, at: { type: 'object', properties: { x: { type: 'number' } } } } };
    expect(problemsSent(schema, { query: 'x', limit: null, at: { x: null } })).toEqual([
      { path: ['limit'], problem: `must be an integer${NULL_PROPERTY}` },
      { path: ['at', 'x'], problem: `must be a number${NULL_PROPERTY}` },
    ]);
    // A key spelled as an index is still a property.
    expect(problemsSent({ type: 'object', properties: { '0': { type: 'string' } } }, { '0': null })).toEqual([{ path: [0], problem: `must be a string${NULL_PROPERTY}` }]);
    // Behind a $ref too; not for a property its object requires, nor without the schema to read.
    const reffed = { type: 'object', properties: { page: { $ref: '#/$defs/page' } }, $defs: { page: { type: 'object', properties: { size: { type: 'integer' } } } } };
    expect(problemsSent(reffed, { page: { size: null } })).toEqual([{ path: ['page', 'size'], problem: `must be an integer${NULL_PROPERTY}` }]);
    expect(problemsSent({ ...schema, required: ['limit'] }, { limit: null })).toEqual([{ path: ['limit'], problem: 'must be an integer' }]);
    const check = callerValueAjv().compile(schema);
    expect(check({ limit: null })).toBe(false);
    expect(describeSchemaErrors(check.errors, undefined, undefined, false, { value: { limit: null } })).toEqual([{ path: ['limit'], problem: 'must be an integer' }]);
  });

  it('reads each object apart: siblings one requires and one leaves optional, the same name in two objects, keys a pointer escapes', () => {
    const inner = (required: string[]) => ({ type: 'object', properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'string' }, e: { type: 'string' } }, required });
    const schema = { type: 'object', properties: { x: inner(['c~d']), y: inner(['e']) } };
    const nulls = { 'a/b': null, 'c~d': null, e: null };
    expect(problemsSent(schema, { x: nulls, y: nulls })).toEqual([
      { path: ['x', 'a/b'], problem: `must be a string${NULL_PROPERTY}` },
      { path: ['x', 'c~d'], problem: 'must be a string' },
      { path: ['x', 'e'], problem: `must be a string${NULL_PROPERTY}` },
      { path: ['y', 'a/b'], problem: `must be a string${NULL_PROPERTY}` },
      { path: ['y', 'c~d'], problem: `must be a string${NULL_PROPERTY}` },
      { path: ['y', 'e'], problem: 'must be a string' },
    ]);
  });

  it("leaves null sent as an array's item or as the root value worded by the schema alone", () => {
    const schema = { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } }, limit: { type: 'integer' } } };
    expect(problemsSent(schema, { ids: [1, null], limit: null })).toEqual([
      { path: ['ids', 1], problem: 'must be an integer' },
      { path: ['limit'], problem: `must be an integer${NULL_PROPERTY}` },
    ]);
    expect(problemsSent(schema, null)).toEqual([{ path: [], problem: 'must be an object' }]);
  });

  it('says so for a union at a property sent null, of none of its types; not below a union, where branches differ only in one type', () => {
    const either = { type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } };
    expect(problemsSent(either, { id: null })).toEqual([{ path: ['id'], problem: `must be a string or an integer${NULL_PROPERTY}` }]);
    const shaped = (type: string) => ({ type: 'object', properties: { id: { type } }, required: ['id'] });
    const optional = (type: string) => ({ type: 'object', properties: { id: { type } } });
    expect(problemsSent({ type: 'object', properties: { ref: { anyOf: [shaped('string'), shaped('number')] } } }, { ref: { id: null } })).toEqual([
      { path: ['ref', 'id'], problem: 'must be a string or a number' },
    ]);
    // Below a union no walk of the schema says whether the property is optional: no word on null there either.
    expect(problemsSent({ type: 'object', properties: { ref: { anyOf: [optional('string'), optional('number')] } } }, { ref: { id: null } })).toEqual([
      { path: ['ref', 'id'], problem: 'must be a string or a number' },
    ]);
  });

  it('finds nothing wrong with null where the schema takes it, by its type or a union', () => {
    const schema = { type: 'object', properties: { limit: { type: ['integer', 'null'] }, id: { anyOf: [{ type: 'string' }, { type: 'null' }] }, count: { type: 'integer' } } };
    expect(problemsSent(schema, { limit: null, id: null, count: null })).toEqual([{ path: ['count'], problem: `must be an integer${NULL_PROPERTY}` }]);
  });

  it("offers none unless given it (an output schema's check, an elicitation answer's)", () => {
    expect(describeSchemaErrors(failed()).map((p) => p.problem)).toEqual([
      'must be one of "debug", "info", "warning", "error"',
      'must be one of "red", "green"',
      'must be one of "red", "green"',
    ]);
  });
});

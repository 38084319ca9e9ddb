import { describe, expect, it } from '@jest/globals';

import { McpAction, McpTool } from '../../lib/index.js';
import { DETAILED_CHECK_MAX_ERRORS } from '../../lib/validation/linear-errors.js';
import { recordEvents } from '../support/mcp-client.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool, callToolRaw } from '../support/tool-call.js';

/** One action per JSON Schema construct whose problems the value gate words: each call sends what its schema refuses. */
@McpTool({ name: 'shapes', description: 'Values the value gate words problems for' })
class ShapesTool {
  @McpAction({ description: 'Keys named by a pattern', properties: { tags: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } } } })
  names(data: unknown) {
    return data;
  }

  @McpAction({
    description: 'An object that must carry one of two keys, beside a typed property',
    properties: {
      ref: {
        type: 'object',
        properties: { id: { type: 'integer' }, url: { type: 'string' }, note: { type: 'string' } },
        anyOf: [{ required: ['id'] }, { required: ['url'] }],
      },
    },
  })
  either(data: unknown) {
    return data;
  }

  @McpAction({ description: 'A fixed list', properties: { pair: { const: [1, 2] } } })
  fixed(data: unknown) {
    return data;
  }

  @McpAction({
    description: 'A list with a bounded number of integers',
    properties: { mixed: { type: 'array', contains: { type: 'integer' }, minContains: 2, maxContains: 3 } },
  })
  counted(data: unknown) {
    return data;
  }

  @McpAction({
    description: 'A shipment: abroad needs a country',
    properties: {
      ship: {
        type: 'object',
        properties: { abroad: { type: 'boolean' }, country: { type: 'string' } },
        if: { properties: { abroad: { const: true } } },
        then: { required: ['country'] },
      },
    },
  })
  conditional(data: unknown) {
    return data;
  }

  @McpAction({ description: 'A bulk list of ids or names', properties: { refs: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'string' }] } } } })
  bulk(data: unknown) {
    return data;
  }

  @McpAction({
    description: 'At most 100 ids, beside a name (a bounded schema)',
    properties: { ids: { type: 'array', maxItems: 100, items: { type: 'integer' } }, name: { type: 'string' } },
  })
  capped(data: unknown) {
    return data;
  }

  @McpAction({ description: 'A long list of ids, within its maxItems', properties: { ids: { type: 'array', maxItems: 2_000, items: { type: 'integer' } } } })
  roster(data: unknown) {
    return data;
  }

  @McpAction({ description: 'Picks, each at most once', properties: { picks: { type: 'array', uniqueItems: true } } })
  distinct(data: unknown) {
    return data;
  }

  @McpAction({ description: 'A count and a ratio', properties: { count: { type: 'integer', minimum: 1 }, ratio: { type: 'number' } } })
  sized(data: unknown) {
    return data;
  }
}

/** Calls `shapes` with one action's data and returns the value gate's answer. */
const refuse = async (server: Parameters<typeof callTool>[0], action: string, data: Record<string, unknown>) => {
  const answer = await callTool(server, 'shapes', { action, data });
  expect(answer.body.error).toBe('invalid_values');
  const { invalid_count, invalid, first_only, message } = answer.body as {
    invalid_count: number;
    invalid: { path: string; problems: string[] }[];
    first_only?: true;
    message: string;
  };
  return { invalid_count, invalid, ...(first_only && { first_only, message }) };
};

/**
 * `refuse`, and how long the tool's run took by its `mcp:tool:stop` event: the gates' own time, without the
 * client encoding and sending a large body, which a loaded machine makes slow whatever the server does.
 */
async function timedRefusal(...args: Parameters<typeof refuse>) {
  let found: Awaited<ReturnType<typeof refuse>> | undefined;
  const events = await recordEvents(['mcp:tool:stop'], async () => {
    found = await refuse(...args);
  });
  expect(events).toHaveLength(1);
  return { found: found!, gateMs: events[0]!.message.durationMs };
}

describe('the value gate words each problem at the value that has it', () => {
  // Past the default value cap (maxBodyValues), so the detailed-check bound behind it is reached.
  const app = useTestApp({ providers: [ShapesTool], options: { maxBodyValues: 10_000_000 } });

  it('a key propertyNames refuses: one problem, at that key, saying what its name must be', async () => {
    const found = await refuse(app().server, 'names', { tags: { Bad: 1, good: 2 } });
    expect(found).toMatchObject({ invalid_count: 1, invalid: [{ path: 'tags.Bad', problems: ['its name must match the pattern "^[a-z]+$"'] }] });
  });

  it('a const whose value is a list: the list, as one value', async () => {
    const found = await refuse(app().server, 'fixed', { pair: [2, 1] });
    expect(found.invalid).toEqual([{ path: 'pair', problems: ['must be [1,2]'] }]);
  });

  it.each([
    ['too few', ['a', 1]],
    ['too many', [1, 2, 3, 4]],
  ])('contains with minContains and maxContains, %s matching items: both bounds, not "a matching item"', async (_case, mixed) => {
    const found = await refuse(app().server, 'counted', { mixed });
    expect(found.invalid.find((i) => i.path === 'mixed')?.problems).toEqual(['must contain at least 2 and at most 3 matching item(s)']);
  });

  it('contains: the items it did not match are not offending values (a list may mix them)', async () => {
    const found = await refuse(app().server, 'counted', { mixed: ['a', 1, 'b'] });
    expect(found).toEqual({ invalid_count: 1, invalid: [{ path: 'mixed', problems: ['must contain at least 2 and at most 3 matching item(s)'] }] });
  });

  it('if/then: the object matched "if" and must match "then" (not "does not satisfy if")', async () => {
    const found = await refuse(app().server, 'conditional', { ship: { abroad: true } });
    expect(found.invalid).toEqual([{ path: 'ship', problems: ['missing required property "country"', 'must match the "then" schema (it matches the "if" schema)'] }]);
  });

  it('a bulk call whose every item fails an anyOf is answered in time linear in the items, every item counted up to the error cap', async () => {
    // Three errors an item (the anyOf and each branch): every item is counted while they stay under DETAILED_CHECK_MAX_ERRORS.
    const refs = Array.from({ length: 300 }, () => ({}));
    const { found, gateMs } = await timedRefusal(app().server, 'bulk', { refs });
    // Quadratic in the items, this took seconds; linear, well under one.
    expect(gateMs).toBeLessThan(1000);
    expect(found.invalid_count).toBe(300);
    expect(found).not.toHaveProperty('first_only');
    expect(found.invalid[0]).toEqual({ path: 'refs[0]', problems: ['must be an integer or a string'] });
    const many = await refuse(app().server, 'bulk', { refs: Array.from({ length: 9_000 }, () => ({})) });
    expect(many).toMatchObject({ invalid_count: 1, invalid: [{ path: 'refs[0]', problems: ['must be an integer or a string'] }], first_only: true });
  });

  it('data holding more values than DETAILED_CHECK_MAX_VALUES is checked up to its first problem, and says so', async () => {
    const refs = Array.from({ length: 300_000 }, () => ({}));
    const { found, gateMs } = await timedRefusal(app().server, 'bulk', { refs });
    // Collecting every error of such a call costs about three seconds and 300 MB of heap.
    expect(gateMs).toBeLessThan(1000);
    expect(found).toMatchObject({ first_only: true, invalid_count: 1, invalid: [{ path: 'refs[0]', problems: ['must be an integer or a string'] }] });
    expect((found as { message?: string }).message).toMatch(/holds at least one invalid value: refs\[0\]: must be an integer or a string \(the data is too large/);
  });

  it('a bounded schema: a list far over its maxItems is one problem, its limit, found without reading the items', async () => {
    const ids = Array.from({ length: 300_000 }, () => 'x');
    const { found, gateMs } = await timedRefusal(app().server, 'capped', { ids, name: 5 });
    expect(gateMs).toBeLessThan(1000);
    expect(found).toMatchObject({ first_only: true, invalid_count: 1, invalid: [{ path: 'ids', problems: ['must have at most 100 item(s)'] }] });
  });

  it('a bounded schema: a small list over its maxItems gets every problem, its limit included', async () => {
    const found = await refuse(app().server, 'capped', { ids: Array.from({ length: 101 }, () => 'x'), name: 5 });
    expect(found).not.toHaveProperty('first_only');
    expect(found.invalid_count).toBe(103);
    expect(found.invalid.slice(0, 2)).toEqual([
      { path: 'ids', problems: ['must have at most 100 item(s)'] },
      { path: 'ids[0]', problems: ['must be an integer'] },
    ]);
  });

  it('a bounded schema: data failing in more than DETAILED_CHECK_MAX_ERRORS ways, within its maxItems, is checked up to its first problem, and says so', async () => {
    const at = await refuse(app().server, 'roster', { ids: Array.from({ length: DETAILED_CHECK_MAX_ERRORS }, () => 'x') });
    expect(at).not.toHaveProperty('first_only');
    expect(at.invalid_count).toBe(DETAILED_CHECK_MAX_ERRORS);
    const over = await refuse(app().server, 'roster', { ids: Array.from({ length: DETAILED_CHECK_MAX_ERRORS + 500 }, () => 'x') });
    expect(over).toMatchObject({ first_only: true, invalid_count: 1, invalid: [{ path: 'ids[0]', problems: ['must be an integer'] }] });
  });

  it('a long list of objects under uniqueItems is checked in time linear in its length (not pair by pair)', async () => {
    const picks = [...Array.from({ length: 60_000 }, (_, i) => ({ pick: i })), { pick: 0 }];
    const { found, gateMs } = await timedRefusal(app().server, 'distinct', { picks });
    // Pair by pair, ajv's own check of this list held the event loop for minutes; linear, it takes about 0.4 s
    // (10 s seen once on a VM running three test suites at once).
    expect(gateMs).toBeLessThan(20_000);
    expect(found).toMatchObject({ invalid_count: 1, invalid: [{ path: 'picks', problems: ['must not contain duplicate items'] }] });
  }, 60_000);

  it('a number JSON cannot carry (1e400, Infinity once parsed) is no integer and no number: the tool never sees it', async () => {
    const answer = await callToolRaw(app().server, 'shapes', '{"action":"sized","data":{"count":1e400,"ratio":-1e400}}');
    expect(answer.body).toMatchObject({
      error: 'invalid_values',
      invalid: [
        { path: 'count', problems: ['must be an integer'] },
        { path: 'ratio', problems: ['must be a number'] },
      ],
    });
    expect((await callTool(app().server, 'shapes', { action: 'sized', data: { count: 2, ratio: 0.5 } })).body).toEqual({ count: 2, ratio: 0.5 });
  });

  it('a number out of range (1e400) where the schema types none is refused at its path beside the typed problems: the tool never sees Infinity', async () => {
    const untyped = await callToolRaw(app().server, 'shapes', '{"action":"distinct","data":{"picks":[1,{"deep":[-1e400]},1E+999]}}');
    expect(untyped.body).toMatchObject({
      error: 'invalid_values',
      invalid_count: 2,
      invalid: [
        { path: 'picks[1].deep[0]', problems: ['must be a number within ±1.8e308 (a larger one reads as Infinity)'] },
        { path: 'picks[2]', problems: ['must be a number within ±1.8e308 (a larger one reads as Infinity)'] },
      ],
    });
    const mixed = await callToolRaw(app().server, 'shapes', '{"action":"names","data":{"tags":{"a":1e400,"B":2}}}');
    expect(mixed.body).toMatchObject({
      error: 'invalid_values',
      invalid_count: 2,
      invalid: [
        { path: 'tags.B', problems: [expect.stringContaining('pattern')] },
        { path: 'tags.a', problems: [expect.stringContaining('±1.8e308')] },
      ],
    });
    expect((await callToolRaw(app().server, 'shapes', '{"action":"distinct","data":{"picks":[1e300,1e-400]}}')).body).toEqual({ picks: [1e300, 0] });
  });

  it('past DETAILED_CHECK_MAX_ERRORS numbers out of range, or past DETAILED_CHECK_MAX_PATH_CHARS characters of their locations, names the first only (first_only)', async () => {
    const nested = (count: number, depth: number) => {
      const picks = Array.from({ length: count }, (_, i) => `{"i":${i},"n":${'{"a":'.repeat(depth)}1e400${'}'.repeat(depth)}}`).join(',');
      return `{"action":"distinct","data":{"picks":[${picks}]}}`;
    };
    // 20 levels down, a thousand locations spell about 52,000 characters; 100 levels down, about 212,000.
    const at = (await callToolRaw(app().server, 'shapes', nested(DETAILED_CHECK_MAX_ERRORS, 20))).body;
    expect(at).toMatchObject({ error: 'invalid_values', invalid_count: DETAILED_CHECK_MAX_ERRORS });
    expect(at).not.toHaveProperty('first_only');
    for (const [count, depth] of [
      [DETAILED_CHECK_MAX_ERRORS + 1, 20],
      [DETAILED_CHECK_MAX_ERRORS, 100],
    ] as const) {
      const over = (await callToolRaw(app().server, 'shapes', nested(count, depth))).body;
      expect(over).toMatchObject({ error: 'invalid_values', invalid_count: 1, first_only: true, invalid: [{ path: `picks[0].n${'.a'.repeat(depth)}` }] });
    }
  });

  it("a failing anyOf is one problem at its object (here the keys it needs one of), and a sibling property's own problem is still listed", async () => {
    const found = await refuse(app().server, 'either', { ref: { note: 7 } });
    expect(found).toEqual({
      invalid_count: 2,
      invalid: [
        { path: 'ref', problems: ['missing required property "id" or "url"'] },
        { path: 'ref.note', problems: ['must be a string'] },
      ],
    });
  });
});

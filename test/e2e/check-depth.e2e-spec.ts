import { describe, expect, it } from '@jest/globals';

import { McpTool, type McpPlainTool } from '../../lib/index.js';
import { MAX_NESTING_DEPTH } from '../../lib/protocol/nesting.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool, type ToolAnswer } from '../support/tool-call.js';

/** How many properties the leaf each level of `deep`'s schema inlines: enough for each level's check to take a large stack frame. */
const LEAF_PROPERTIES = 1_000;

/**
 * A plain tool whose input is a chain of nodes through a recursive `$ref`, each node inlining a leaf of
 * {@link LEAF_PROPERTIES} properties: ajv checks each level in one call of a large generated function, so the stack
 * runs out well within the nesting a message may have (the every-problem validator, which keeps more at each level,
 * first).
 */
const DEEP_SCHEMA = {
  type: 'object',
  properties: { node: { $ref: '#/$defs/node' } },
  $defs: {
    node: { type: 'object', properties: { kid: { $ref: '#/$defs/node' }, leaf: { $ref: '#/$defs/leaf' } } },
    leaf: { type: 'object', properties: Object.fromEntries(Array.from({ length: LEAF_PROPERTIES }, (_, i) => [`p${i}`, { type: 'string', minLength: 1 }])) },
  },
};

@McpTool({ name: 'deep', description: 'Takes a chain of nodes.', inputSchema: DEEP_SCHEMA })
class DeepTool implements McpPlainTool {
  run() {
    return 'served';
  }
}

/** The chain echoed back with its leaf's `p1` emptied: structured content its output schema refuses. */
@McpTool({ name: 'deep_broken', description: 'Echoes a chain of nodes, broken.', inputSchema: DEEP_SCHEMA, outputSchema: DEEP_SCHEMA })
class DeepBrokenTool implements McpPlainTool {
  run(args: Record<string, unknown>) {
    return JSON.parse(JSON.stringify(args).replace('"p1":"x"', '"p1":""')) as Record<string, unknown>;
  }
}

/** The same chain echoed back as its structured content, which its output schema (the same schema) checks. */
@McpTool({ name: 'deep_echo', description: 'Echoes a chain of nodes.', inputSchema: DEEP_SCHEMA, outputSchema: DEEP_SCHEMA })
class DeepEchoTool implements McpPlainTool {
  run(args: Record<string, unknown>) {
    return args;
  }
}

/** The arguments of a call to `deep`: `kids` levels of `kid` below `node`, the last holding a leaf whose `p1` is `p1`. */
function chain(kids: number, p1: string): Record<string, unknown> {
  let node: Record<string, unknown> = { leaf: { p1 } };
  for (let i = 0; i < kids; i++) node = { kid: node };
  return { node };
}

/** How the value gate answered a failing chain: every problem named, the first only (the stack ran out), or none. */
type Band = 'every problem' | 'first problem' | 'unchecked';

/** The deepest chain sent: its message (envelope, params, arguments, node, the kids, the leaf) within MAX_NESTING_DEPTH. */
const DEEPEST = MAX_NESTING_DEPTH - 8;

describe('a value nested deeper than its recursive schema can be checked on the stack', () => {
  const app = useTestApp({ providers: [DeepTool, DeepEchoTool, DeepBrokenTool] });

  it('is refused as an invalid value naming its depth, never a tool fault; where only the every-problem check runs out, the first problem is named and a valid value served', async () => {
    const bands: Band[] = [];
    for (let kids = 0; kids <= DEEPEST; kids++) {
      const path = ['node', ...Array<string>(kids).fill('kid'), 'leaf', 'p1'].join('.');
      const [valid, invalid]: ToolAnswer[] = [await callTool(app().server, 'deep', chain(kids, 'x')), await callTool(app().server, 'deep', chain(kids, ''))];
      expect(invalid.status).toBe(200);
      expect(invalid.result.isError).toBe(true);
      expect(invalid.body).not.toHaveProperty('tooDeep');
      const problem = 'must have at least 1 character(s)';
      if (invalid.body.first_only === undefined) {
        bands.push('every problem');
        expect(invalid.body).toMatchObject({ error: 'invalid_values', invalid_count: 1, invalid: [{ path, problems: [problem] }] });
        expect(valid.body).toBe('served');
      } else if (invalid.body.invalid[0].path === path) {
        bands.push('first problem');
        expect(invalid.body).toMatchObject({ error: 'invalid_values', invalid_count: 1, invalid: [{ path, problems: [problem] }], first_only: true });
        expect(invalid.body.message).toBe(
          `The arguments object of tool "deep" holds at least one invalid value: ${path}: ${problem} (the data is too deeply nested to look for every problem; fix this one and retry).`,
        );
        expect(valid.body).toBe('served'); // the first-problem check, which decides, still reaches the bottom
      } else {
        bands.push('unchecked');
        // The arguments, node, each kid and the leaf: one level each.
        const refused = `is nested ${kids + 3} levels deep, too deep to be checked against its schema`;
        for (const answer of [valid, invalid]) {
          expect(answer.result.isError).toBe(true);
          expect(answer.body).toMatchObject({ error: 'invalid_values', invalid_count: 1, invalid: [{ path: '', problems: [refused] }], first_only: true });
          expect(answer.body.message).toBe(`The arguments object of tool "deep" ${refused}: send it nested less deeply and retry.`);
        }
      }
    }
    // Deeper chains fall into each band in turn, and every band is met within the nesting a message may have.
    const order: Band[] = ['every problem', 'first problem', 'unchecked'];
    expect(bands.map((band) => order.indexOf(band))).toEqual([...bands.map((band) => order.indexOf(band))].sort((a, b) => a - b));
    expect(new Set(bands)).toEqual(new Set(order));
  });

  it('echoed back, is served wherever the input gate lets it through: a first-problem check decides the output too', async () => {
    const outcomes: { band: Band; echo: 'served' | 'fault' | 'refused' }[] = [];
    for (let kids = 0; kids <= DEEPEST; kids++) {
      const args = chain(kids, 'x');
      const input = await callTool(app().server, 'deep', chain(kids, ''));
      const band: Band = input.body.first_only === undefined ? 'every problem' : input.body.invalid[0].path === '' ? 'unchecked' : 'first problem';
      const answer = await callTool(app().server, 'deep_echo', args);
      expect(answer.status).toBe(200);
      if (answer.result.isError !== true) {
        outcomes.push({ band, echo: 'served' });
        expect(answer.result.structuredContent).toEqual(args);
      } else if (answer.body.error === 'invalid_values') outcomes.push({ band, echo: 'refused' });
      else {
        outcomes.push({ band, echo: 'fault' });
        expect(answer.body).toEqual({
          errorType: 'tool_fault',
          tool: 'deep_echo',
          exception: 'StructuredContentMismatchError',
          message: `tool "deep_echo" returned structured content nested ${kids + 3} levels deep, too deep to be checked against its output schema`,
        });
      }
    }
    // Refused at the input where the input gate checks nothing; served elsewhere, past the every-problem check's reach
    // too. The output is checked a few frames deeper than the input: at the last depth the input passes, the output's
    // check may run out (a fault named so, never a bare RangeError).
    const lastPassed = outcomes.findLastIndex((o) => o.band !== 'unchecked');
    outcomes.forEach(({ band, echo }, kids) => {
      if (band === 'unchecked') expect(echo).toBe('refused');
      else if (kids < lastPassed) expect(echo).toBe('served');
      else expect(echo).not.toBe('refused');
    });
    expect(outcomes.some(({ band, echo }) => band === 'first problem' && echo === 'served')).toBe(true);
  });

  it('echoed back broken, is the fault that names its first problem, past the every-problem check’s reach too', async () => {
    let pastReach = 0;
    let outOfStack = 0;
    for (let kids = 0; kids <= DEEPEST; kids++) {
      const input = await callTool(app().server, 'deep', chain(kids, ''));
      if (input.body.invalid[0].path === '') break; // unchecked at the input: nothing reaches the output
      if (input.body.first_only) pastReach++;
      const path = ['node', ...Array<string>(kids).fill('kid'), 'leaf', 'p1'].join('.');
      const answer = await callTool(app().server, 'deep_broken', chain(kids, 'x'));
      expect(answer.body).toMatchObject({ errorType: 'tool_fault', tool: 'deep_broken', exception: 'StructuredContentMismatchError' });
      // At the input's last reach the output's check, a few frames deeper, may run out instead (named so).
      if (answer.body.message.includes('too deep to be checked')) outOfStack++;
      else expect(answer.body.message).toBe(`tool "deep_broken" returned structured content its output schema refuses: ${path}: must have at least 1 character(s)`);
    }
    expect(pastReach).toBeGreaterThan(1);
    expect(outOfStack).toBeLessThanOrEqual(1);
  });
});

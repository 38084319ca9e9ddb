import { readFileSync } from 'node:fs';

import { describe, expect, it } from '@jest/globals';

import { DISPATCH_GATES, type DispatchGate } from '../../lib/index.js';
import { DATA_GATES } from '../../lib/tools/dispatch-gates.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool } from '../support/tool-call.js';
import { ALL_TOOLS } from '../support/tools.js';

type Args = Record<string, any>;

/** A call to `tasks.create` every gate passes. */
const valid = (): Args => ({
  action: 'create',
  data: { name: 'Write docs', project: 'nest-mcp', due: '2026-08-01', owner: { id: 1 } },
});

/**
 * One mistake per gate, each one only that gate refuses. `satisfies Record<DispatchGate, …>` closes the list:
 * a gate added to DISPATCH_GATES without a mistake here fails to typecheck.
 */
const MISTAKES = {
  unknown_arguments: (a: Args) => ({ ...a, stray: true }),
  invalid_argument_type: (a: Args) => ({ ...a, data: ['not', 'an', 'object'] }),
  missing_action: ({ action: _dropped, ...rest }: Args) => rest,
  unknown_action: (a: Args) => ({ ...a, action: 'crate' }),
  missing_required: (a: Args) => ({ ...a, data: { ...a.data, name: undefined } }),
  unsatisfied_required_one_of: (a: Args) => ({ ...a, data: { ...a.data, project: undefined } }),
  unknown_params: (a: Args) => ({ ...a, data: { ...a.data, owner: { ...a.data.owner, nickname: 'x' } } }),
  invalid_values: (a: Args) => ({ ...a, data: { ...a.data, due: 'next tuesday' } }),
} satisfies Record<DispatchGate, (args: Args) => Args>;

/**
 * The gate order docs/tools.md promises (its numbered table), read from there, not from DISPATCH_GATES: a gate
 * moved in the code alone fails a cell.
 */
const DOCUMENTED = [...readFileSync(new URL('../../docs/tools.md', import.meta.url), 'utf8').matchAll(/^\|\s*\d+\s*\|\s*`([a-z_]+)`\s*\|/gm)].map(
  ([, gate]) => gate as DispatchGate,
);

/**
 * The cell of gate i: the call carrying the mistakes of gate i and of every gate after it, applied last gate
 * first (so an earlier gate's mistake is the one left standing where two touch the same argument).
 */
const cellArgs = (index: number): Args =>
  DOCUMENTED.slice(index)
    .reverse()
    .reduce((args, gate) => MISTAKES[gate](args), valid());

describe('dispatch-gate sweep (tasks.create)', () => {
  const app = useTestApp({ providers: ALL_TOOLS });

  it('passes the valid call through every gate to the action', async () => {
    const answer = await callTool(app().server, 'tasks', valid());
    expect(answer.result.isError).toBeUndefined();
    expect(answer.body.task.name).toBe('Write docs');
  });

  it('documents every gate, each once', () => {
    expect([...DOCUMENTED].sort()).toEqual([...DISPATCH_GATES].sort());
  });

  describe.each(DOCUMENTED.map((gate, index) => [gate, index] as const))('gate %s', (gate, index) => {
    it('answers first, as an isError result naming it first, with a help pointer, when it and every later gate would fire', async () => {
      const answer = await callTool(app().server, 'tasks', JSON.parse(JSON.stringify(cellArgs(index))));
      expect(answer.status).toBe(200);
      expect(answer.result.isError).toBe(true);
      expect(Object.keys(answer.body)[0]).toBe('error');
      expect(answer.body.error).toBe(gate);
      expect(answer.body.help).toEqual({
        tool: 'help',
        arguments: (DATA_GATES as readonly string[]).includes(gate) ? { tool: 'tasks', action: 'create' } : { tool: 'tasks' },
      });
    });

    it('carries the input_schema digest exactly when it is a data-level gate', async () => {
      const answer = await callTool(app().server, 'tasks', JSON.parse(JSON.stringify(MISTAKES[gate](valid()))));
      expect(answer.body.error).toBe(gate);
      expect('input_schema' in answer.body).toBe((DATA_GATES as readonly string[]).includes(gate));
    });
  });
});

import { describe, expect, it } from '@jest/globals';

import { readHints } from '../../lib/tools/hint.js';

describe("a hints hook's return", () => {
  it('keeps the four hint keys of each hint, and only those', () => {
    const returned = [
      { tool: 'tasks', action: 'get', description: 'View the task', example: { id: 1 }, secret: 'x' },
      { tool: 'tasks', action: 'list', description: 'List tasks', rank: 2 },
    ];
    expect(readHints('tasks', returned)).toEqual([
      { tool: 'tasks', action: 'get', description: 'View the task', example: { id: 1 } },
      { tool: 'tasks', action: 'list', description: 'List tasks' },
    ]);
  });

  it.each([
    ['a hint without a description', { tool: 'tasks', action: 'get' }],
    ['a description that is no string', { tool: 'tasks', action: 'get', description: 5 }],
    ['an example that is no object', { tool: 'tasks', action: 'get', description: 'd', example: 'id 1' }],
    ['an example that is a list', { tool: 'tasks', action: 'get', description: 'd', example: [1] }],
    ['a tool that is no string', { tool: 1, action: 'get', description: 'd' }],
    ['an action that is no string', { tool: 'tasks', action: null, description: 'd' }],
  ])('is the tool fault for %s, naming its index', (_what, hint) => {
    expect(() => readHints('tasks', [{ tool: 'tasks', action: 'get', description: 'fine' }, hint])).toThrow(
      'hints() of tool "tasks" returned a malformed hint at [1]: a hint has string tool, action and description, and an optional object example',
    );
  });

  it.each([
    ['an object', { tool: 'tasks' }],
    ['nothing', undefined],
  ])('is the tool fault when it is no list: %s', (_kind, returned) => {
    expect(() => readHints('tasks', returned)).toThrow(/^hints\(\) of tool "tasks" must return an array of hints, not /);
  });
});

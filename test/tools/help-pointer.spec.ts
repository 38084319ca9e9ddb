import { describe, expect, it } from '@jest/globals';

import { checkArguments } from '../../lib/tools/dispatch-gates.js';
import { helpPointer } from '../../lib/tools/help-pointer.js';
import { HELP_INPUT_SCHEMA } from '../../lib/tools/help.tool.js';

describe('the help pointer', () => {
  it.each([
    ['the index', helpPointer(), {}],
    ['a tool', helpPointer('tasks'), { tool: 'tasks' }],
    ['an action', helpPointer('tasks', 'create'), { tool: 'tasks', action: 'create' }],
  ])('points at %s with a call help accepts as it stands', (_level, pointer, args) => {
    expect(pointer).toEqual({ tool: 'help', arguments: args });
    const vocabulary = Object.fromEntries(Object.entries(HELP_INPUT_SCHEMA.properties).map(([k, v]) => [k, v.type]));
    expect(checkArguments('help', pointer.arguments as Record<string, unknown>, vocabulary, helpPointer())).toEqual({ data: args });
  });
});

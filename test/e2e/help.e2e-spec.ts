import { describe, expect, it } from '@jest/globals';

import { McpAction, McpTool } from '../../lib/index.js';
import { NAMES_LISTED } from '../../lib/util/named-registry.js';
import { EchoTool } from '../support/fixture-tools.js';
import { post, rpc } from '../support/mcp-client.js';
import { TotalTool } from '../support/structured-tools.js';
import { useTestApp } from '../support/suite-app.js';
import { createTestApp } from '../support/test-app.js';
import { callTool } from '../support/tool-call.js';
import { ALL_TOOLS, CREATE_SCHEMA } from '../support/tools.js';

const TOOLS = ['badhooks', 'echo', 'faulty', 'help', 'reports', 'tasks'];

describe('the help tool', () => {
  const app = useTestApp({ providers: ALL_TOOLS });

  describe('with no arguments', () => {
    it('answers the index: every tool, sorted, with its description and action summaries', async () => {
      const answer = await callTool(app().server, 'help', {});
      expect(answer.result.isError).toBeUndefined();
      expect(answer.body.tools.map((entry: { tool: string }) => entry.tool)).toEqual(TOOLS);
      expect(answer.body.tools.find((entry: { tool: string }) => entry.tool === 'tasks')).toEqual({
        tool: 'tasks',
        description: 'Task management.\nA second line stays.',
        actions: ['close: Close a task', 'create: Create a task', 'get: Get a task by id', 'raw: Return MCP content directly'],
      });
      expect(answer.body.tools.find((entry: { tool: string }) => entry.tool === 'echo')).toEqual({ tool: 'echo', description: 'Echoes the given text back.' });
    });

    it('shares its action summaries with the tools/list action enum, so the two cannot drift', async () => {
      const index = await callTool(app().server, 'help');
      const listed = await post(app().server, rpc('tools/list'));
      const enumDescription = listed.body.result.tools.find((tool: { name: string }) => tool.name === 'tasks').inputSchema.properties.action.description;
      expect(index.body.tools.find((entry: { tool: string }) => entry.tool === 'tasks').actions.join('\n')).toBe(enumDescription);
    });
  });

  describe('with {tool}', () => {
    it('answers an action tool complete: every action with its digest, notes, related actions and examples', async () => {
      const answer = await callTool(app().server, 'help', { tool: 'tasks' });
      expect(Object.keys(answer.body)).toEqual(['tool', 'title', 'description', 'annotations', 'actions']);
      expect(Object.keys(answer.body.actions)).toEqual(['close', 'create', 'get', 'raw']);
      expect(answer.body.actions.create).toEqual({
        description: 'Create a task',
        properties: expect.objectContaining({ owner: { ...CREATE_SCHEMA.properties.owner, additionalProperties: false } }),
        required: ['name'],
        defaults: CREATE_SCHEMA.defaults,
        required_one_of: CREATE_SCHEMA.requiredOneOf,
        notes: CREATE_SCHEMA.notes,
        related: ['get'],
        examples: CREATE_SCHEMA.examples,
      });
      expect(answer.body.actions.get).toEqual({ description: 'Get a task by id', properties: { id: { type: 'integer' } }, required: ['id'], defaults: {} });
    });

    it('answers a plain tool with its input schema, the key-set closure published', async () => {
      const answer = await callTool(app().server, 'help', { tool: 'echo' });
      expect(answer.body).toMatchObject({ tool: 'echo', description: 'Echoes the given text back.', annotations: { readOnlyHint: true } });
      expect(answer.body.input_schema.additionalProperties).toBe(false);
      expect(answer.body.input_schema.properties.options.additionalProperties).toBe(false);
    });

    it('answers a tool with an output schema with it', async () => {
      const answer = await callTool(app().server, 'help', { tool: 'reports' });
      expect(answer.body.output_schema).toEqual({ type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] });
    });
  });

  describe('with {tool, action}', () => {
    it("answers one action complete, with the tool's action context", async () => {
      const answer = await callTool(app().server, 'help', { tool: 'tasks', action: 'create' });
      expect(answer.body).toMatchObject({ tool: 'tasks', action: 'create', description: 'Create a task', required: ['name'], notes: CREATE_SCHEMA.notes });
      expect(answer.body.context).toEqual({ stored: expect.any(Number), asked_by: 'test-client', for: 'tasks.create' }); // the described tool's context, not help's
    });

    it('adds no context key where the tool has none for the action', async () => {
      const answer = await callTool(app().server, 'help', { tool: 'tasks', action: 'get' });
      expect(answer.body.action).toBe('get');
      expect('context' in answer.body).toBe(false);
    });
  });

  describe('refuses an unknown target instead of answering something broader', () => {
    it('an unknown tool: the valid tools and a pointer to the index', async () => {
      const answer = await callTool(app().server, 'help', { tool: 'taks' });
      expect(answer.result.isError).toBe(true);
      expect(answer.body).toMatchObject({ error: 'unknown_tool', tool: 'taks', valid_tools: TOOLS });
      expect(answer.body).not.toHaveProperty('valid_tools_count');
      // Worded as tools/call's JSON-RPC refusal of an unknown tool words it.
      expect(answer.body.message).toBe(`Unknown tool: "taks" (did you mean "tasks"?). Valid tools: ${TOOLS.join(', ')}.`);
      expect(answer.body.help).toEqual({ tool: 'help', arguments: {} });
    });

    it('an unknown tool named at length and with a bidi control: its name bounded and escaped, in data as in the message', async () => {
      const sent = `\u202e${'x'.repeat(200)}`;
      const answer = await callTool(app().server, 'help', { tool: sent });
      expect(answer.body.error).toBe('unknown_tool');
      expect(answer.body.tool).toBe(`\\u202e${'x'.repeat(57)}…`);
      expect(answer.body.message).toContain('"\\u202exxx');
      expect(answer.body.message).not.toContain('x'.repeat(100));
    });

    it('an action without a tool: the valid tools', async () => {
      const answer = await callTool(app().server, 'help', { action: 'create' });
      expect(answer.body).toMatchObject({ error: 'missing_tool', valid_tools: TOOLS });
      expect(answer.body).not.toHaveProperty('valid_tools_count');
      expect(answer.body.help).toEqual({ tool: 'help', arguments: {} });
    });

    it("an unknown action: the valid actions and a pointer to the tool, in the dispatch gate's own dialect", async () => {
      const viaHelp = await callTool(app().server, 'help', { tool: 'tasks', action: 'crate' });
      const viaGate = await callTool(app().server, 'tasks', { action: 'crate' });
      expect(viaHelp.body).toEqual(viaGate.body);
      expect(viaHelp.body).toMatchObject({ error: 'unknown_action', valid_actions: ['close', 'create', 'get', 'raw'], help: { tool: 'help', arguments: { tool: 'tasks' } } });
    });

    it('an empty action name: refused as unknown, never answered with the whole tool', async () => {
      const answer = await callTool(app().server, 'help', { tool: 'tasks', action: '' });
      expect(answer.result.isError).toBe(true);
      expect(answer.body).toMatchObject({ error: 'unknown_action', action: '', valid_actions: ['close', 'create', 'get', 'raw'] });
    });

    it('an action of a plain tool, which has none', async () => {
      const answer = await callTool(app().server, 'help', { tool: 'echo', action: 'run' });
      expect(answer.body).toMatchObject({ error: 'unknown_action', valid_actions: [] });
      expect(answer.body.help).toEqual({ tool: 'help', arguments: { tool: 'echo' } });
      expect(answer.body.message).toBe('Unknown action "run" for tool "echo". Tool "echo" has no actions.');
    });
  });

  describe('its own arguments meet the arguments-level gates', () => {
    it('names before types: a stray key is reported first', async () => {
      const answer = await callTool(app().server, 'help', { tool: 5, topic: 'x' });
      expect(answer.body).toMatchObject({ error: 'unknown_arguments', unknown: ['topic'], allowed: ['tool', 'action'], help: { tool: 'help', arguments: {} } });
    });

    it('then types, read from its own input schema', async () => {
      const answer = await callTool(app().server, 'help', { tool: 5 });
      expect(answer.body).toMatchObject({ error: 'invalid_argument_type', invalid: [{ argument: 'tool', expected: 'string', received: 'number' }] });
    });
  });
});

describe('the help tool beside one tool', () => {
  const app = useTestApp({ providers: [EchoTool] });

  it('is listed after it, with its own input schema and annotations', async () => {
    const listed = await post(app().server, rpc('tools/list'));
    expect(listed.body.result.tools.map((t: { name: string }) => t.name)).toEqual(['echo', 'help']);
    expect(listed.body.result.tools[1]).toEqual({
      name: 'help',
      description: expect.stringContaining('No arguments: an index'),
      inputSchema: {
        type: 'object',
        properties: { tool: { type: 'string', description: expect.any(String) }, action: { type: 'string', description: expect.any(String) } },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
  });

  it('indexes that tool and itself', async () => {
    const answer = await callTool(app().server, 'help');
    expect(answer.body.tools).toEqual([
      { tool: 'echo', description: expect.any(String) },
      { tool: 'help', description: expect.any(String) },
    ]);
  });
});

describe('the help tool beside a plain tool with an output schema', () => {
  const app = useTestApp({ providers: [TotalTool] });

  it('answers that tool with its input and output schemas', async () => {
    const answer = await callTool(app().server, 'help', { tool: 'total' });
    expect(answer.body).toMatchObject({ tool: 'total', input_schema: { type: 'object', properties: {} } });
    expect(answer.body.output_schema).toEqual({ type: 'object', properties: { total: { type: 'integer' } } });
  });
});

describe('a server with no tools', () => {
  const app = useTestApp();

  it('lists no help tool and advertises no capability: tools/list and tools/call are unknown methods', async () => {
    const discovered = await post(app().server, rpc('server/discover'));
    expect(discovered.body.result.capabilities).toEqual({});
    for (const body of [rpc('tools/list'), rpc('tools/call', { name: 'help', arguments: {} })]) {
      const res = await post(app().server, body);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe(-32601);
    }
  });
});

const name = (prefix: string, i: number) => `${prefix}${String(i).padStart(3, '0')}`;

/** An action tool named `tool` with `count` generated actions, `a000` on. */
function generatedActions(tool: string, count: number) {
  const declared = class {};
  for (let a = 0; a < count; a++) {
    Object.defineProperty(declared.prototype, name('a', a), { value: () => 'ok', writable: true, configurable: true });
    McpAction({ description: 'A generated action.', properties: {} })(declared.prototype, name('a', a), Object.getOwnPropertyDescriptor(declared.prototype, name('a', a))!);
  }
  McpTool({ name: tool, description: 'Generated actions.' })(declared);
  return declared;
}

describe(`the names a refusal lists past ${NAMES_LISTED}`, () => {
  const count = NAMES_LISTED + 10;
  /** One action tool with `count` actions, one with exactly NAMES_LISTED, and `count` plain tools. */
  const providers = [
    generatedActions('many', count),
    generatedActions('exact', NAMES_LISTED),
    ...Array.from({ length: count }, (_, i) => {
      const tool = class {
        run() {
          return 'ok';
        }
      };
      McpTool({ name: name('t', i), description: 'A generated tool.', inputSchema: { type: 'object', properties: {} } })(tool);
      return tool;
    }),
  ];
  const actions = Array.from({ length: count }, (_, a) => name('a', a));
  const tools = ['exact', 'help', 'many', ...Array.from({ length: count }, (_, i) => name('t', i))].sort();

  it(`help's unknown_tool and missing_tool list the first ${NAMES_LISTED} tools and count them all`, async () => {
    const t = await createTestApp({ providers });
    try {
      for (const args of [{ tool: 'nope' }, { action: 'a000' }]) {
        const answer = await callTool(t.server, 'help', args);
        expect(answer.result.isError).toBe(true);
        expect(answer.body.valid_tools).toEqual(tools.slice(0, NAMES_LISTED));
        expect(answer.body.valid_tools_count).toBe(tools.length);
        expect(answer.body.message).toContain(`${tools[NAMES_LISTED - 1]}, …`);
      }
      const unknownAction = await callTool(t.server, 'help', { tool: 'many', action: 'nope' });
      expect(unknownAction.body).toMatchObject({ error: 'unknown_action', valid_actions: actions.slice(0, NAMES_LISTED), valid_actions_count: count });
      expect(unknownAction.body.message).toContain(`${actions[NAMES_LISTED - 1]}, … (${count} in all).`);
      for (const args of [{}, { action: 'nope' }]) {
        const refused = await callTool(t.server, 'many', args);
        expect(refused.body).toMatchObject({ valid_actions: actions.slice(0, NAMES_LISTED), valid_actions_count: count });
        expect(refused.body.message).toContain(`(${count} in all)`);
      }
    } finally {
      await t.close();
    }
  });

  it(`an unknown or missing action of a tool with exactly ${NAMES_LISTED} actions lists them all, uncounted`, async () => {
    const t = await createTestApp({ providers });
    try {
      const refusals = [
        await callTool(t.server, 'help', { tool: 'exact', action: 'nope' }),
        await callTool(t.server, 'exact', {}),
        await callTool(t.server, 'exact', { action: 'nope' }),
      ];
      for (const refused of refusals) {
        expect(refused.body.valid_actions).toEqual(actions.slice(0, NAMES_LISTED));
        expect(refused.body).not.toHaveProperty('valid_actions_count');
        expect(refused.body.message).toContain(`${actions[NAMES_LISTED - 1]}.`);
        expect(refused.body.message).not.toContain('in all');
      }
    } finally {
      await t.close();
    }
  });
});

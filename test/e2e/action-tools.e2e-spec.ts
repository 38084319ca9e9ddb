import { describe, expect, it } from '@jest/globals';

import { McpAction, McpTool } from '../../lib/index.js';
import { post, rpc } from '../support/mcp-client.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool, callToolRaw } from '../support/tool-call.js';
import { ALL_TOOLS, CREATE_SCHEMA } from '../support/tools.js';

describe('action tools', () => {
  const app = useTestApp({ providers: ALL_TOOLS });

  describe('in tools/list', () => {
    it('publish the generated {action, data} input schema: closed, the action enum sorted and described by the action summaries', async () => {
      const res = await post(app().server, rpc('tools/list'));
      const tasks = res.body.result.tools.find((tool: { name: string }) => tool.name === 'tasks');
      expect(tasks).toEqual({
        name: 'tasks',
        title: 'Tasks',
        description: 'Task management.\nA second line stays.',
        annotations: { destructiveHint: false },
        inputSchema: {
          type: 'object',
          properties: {
            action: {
              type: 'string',
              enum: ['close', 'create', 'get', 'raw'],
              description: 'close: Close a task\ncreate: Create a task\nget: Get a task by id\nraw: Return MCP content directly',
            },
            data: {
              type: 'object',
              description: 'The action\'s data. Its properties depend on the action: call the help tool with {"tool": "tasks", "action": "<action>"} to read them.',
            },
          },
          required: ['action'],
          additionalProperties: false,
        },
      });
    });

    it('list every tool sorted by name, the framework help tool among them', async () => {
      const res = await post(app().server, rpc('tools/list'));
      expect(res.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['badhooks', 'echo', 'faulty', 'help', 'reports', 'tasks']);
    });
  });

  describe('when a call passes the gates', () => {
    it('run the action with its injected dependency and a context naming the tool and the action', async () => {
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'Injected', project: 'p' } });
      expect(answer.result.isError).toBeUndefined();
      expect(answer.body.task).toMatchObject({ name: 'Injected', project: 'p' });
      expect(typeof answer.body.task.id).toBe('number');
      expect(answer.body.seen).toMatchObject({ tool: 'tasks', action: 'create' });
    });

    it('apply defaults only to omitted properties, after the gates, and keep a null the caller sent', async () => {
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'Defaults', project_key: 'K', repo: 'r', priority: 5, note: null } });
      expect(answer.body.task).toMatchObject({ priority: 5, project: 'inbox', items: [], note: null });
    });

    it('deliver a whole-number float sent where the schema says integer as an integer', async () => {
      const answer = await callToolRaw(app().server, 'tasks', '{"action": "create", "data": {"name": "Float", "project": "p", "priority": 2.0}}');
      expect(answer.body.task.priority).toBe(2);
      expect(answer.body.seen.priorityIsInteger).toBe(true);
    });

    it('keep a __proto__ key the caller sent inside an open object as an own key, polluting nothing', async () => {
      const answer = await callToolRaw(app().server, 'tasks', '{"action": "create", "data": {"name": "Proto", "project": "p", "meta": {"__proto__": {"polluted": true}}}}');
      expect(answer.result.isError).toBeUndefined();
      expect(answer.body.task.meta).toEqual(JSON.parse('{"__proto__": {"polluted": true}}'));
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    });
  });

  describe('dispatch-gate refusals', () => {
    it('read absent arguments as the empty object, which names no action', async () => {
      const answer = await callTool(app().server, 'tasks');
      expect(answer.body.error).toBe('missing_action');
      expect(answer.body.valid_actions).toEqual(['close', 'create', 'get', 'raw']);
    });

    it('name every unknown argument key, bounded: a count and the first ten in sort order', async () => {
      const stray = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${String(i).padStart(2, '0')}`, i]));
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: {}, ...stray, action2: 5 });
      expect(answer.body).toMatchObject({ error: 'unknown_arguments', unknown_count: 13, allowed: ['action', 'data'] });
      expect(answer.body.unknown).toEqual(['action2', 'k00', 'k01', 'k02', 'k03', 'k04', 'k05', 'k06', 'k07', 'k08']);
    });

    it('bound a long unknown argument key in the list, as the message quotes it', async () => {
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: {}, [`k\n${'x'.repeat(500)}`]: 1 });
      expect(answer.body.error).toBe('unknown_arguments');
      expect(answer.body.unknown).toEqual([expect.stringMatching(/^k\\u000ax+…$/)]);
      expect(answer.body.unknown[0].length).toBeLessThanOrEqual(64);
    });

    it('check argument names before types', async () => {
      const answer = await callTool(app().server, 'tasks', { action: 7, stray: 1 });
      expect(answer.body.error).toBe('unknown_arguments');
    });

    it('name a wrong argument type by the JSON types, never by the value', async () => {
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: null });
      expect(answer.body).toMatchObject({ error: 'invalid_argument_type', invalid: [{ argument: 'data', expected: 'object', received: 'null' }] });
      expect(answer.body.message).toBe('In the call to tool "tasks", argument "data" must be an object, not null.');
    });

    it('name data sent as its JSON text so, and a string that is no such text as a string', async () => {
      const text = await callTool(app().server, 'tasks', { action: 'create', data: ' {"title": "x"}' });
      expect(text.body).toMatchObject({ error: 'invalid_argument_type', invalid: [{ argument: 'data', expected: 'object', received: 'string' }] });
      expect(text.body.message).toBe('In the call to tool "tasks", argument "data" must be an object, not a string of JSON (send the object itself).');
      for (const data of ['title', '["x"]']) {
        const plain = await callTool(app().server, 'tasks', { action: 'create', data });
        expect(plain.body.message).toBe('In the call to tool "tasks", argument "data" must be an object, not a string.');
      }
    });

    it('name every argument of a wrong type, one clause each', async () => {
      const answer = await callTool(app().server, 'tasks', { action: 5, data: [] });
      expect(answer.body.invalid).toEqual([
        { argument: 'action', expected: 'string', received: 'number' },
        { argument: 'data', expected: 'object', received: 'array' },
      ]);
      expect(answer.body.message).toBe('In the call to tool "tasks", argument "action" must be a string, not a number; argument "data" must be an object, not an array.');
    });

    it('name a boolean sent for either argument as a boolean', async () => {
      const answer = await callTool(app().server, 'tasks', { action: true, data: false });
      expect(answer.body.invalid).toEqual([
        { argument: 'action', expected: 'string', received: 'boolean' },
        { argument: 'data', expected: 'object', received: 'boolean' },
      ]);
    });

    it('list the valid actions for an unknown one, quoting what was sent bounded and scrubbed', async () => {
      const answer = await callTool(app().server, 'tasks', { action: `crate\n${'x'.repeat(500)}` });
      expect(answer.body.error).toBe('unknown_action');
      expect(answer.body.valid_actions).toEqual(['close', 'create', 'get', 'raw']);
      expect(answer.body.action.length).toBeLessThanOrEqual(64);
      expect(answer.body.action).toMatch(/^crate\\u000ax+…$/);
      expect(answer.body.message.length).toBeLessThan(250);
    });

    it('count a property sent as null as present for required, and leave its null to the value gate', async () => {
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: { name: null, project: 'p' } });
      // name is required: the null is not worded as an optional property's (left out, the call is refused as missing it).
      expect(answer.body).toMatchObject({ error: 'invalid_values', invalid: [{ path: 'name', problems: ['must be a string'] }] });
      // So for a property a requiredOneOf group names (left out, no group is met), not for an optional one.
      const grouped = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'n', project: null, owner: { id: null } } });
      expect(grouped.body).toMatchObject({
        error: 'invalid_values',
        invalid: [
          { path: 'owner.id', problems: ['must be an integer, not null (leave out an optional property rather than send null)'] },
          { path: 'project', problems: ['must be a string'] },
        ],
      });
    });

    it('do not count a default toward required_one_of', async () => {
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'x', project_key: 'K' } });
      expect(answer.body).toMatchObject({ error: 'unsatisfied_required_one_of', required_one_of: [['project'], ['project_key', 'repo']] });
    });

    it('carry the input_schema digest: closed properties, required, defaults, required_one_of', async () => {
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: {} });
      expect(answer.body.missing).toEqual(['name']);
      expect(answer.body.input_schema.required).toEqual(['name']);
      expect(answer.body.input_schema.defaults).toEqual(CREATE_SCHEMA.defaults);
      expect(answer.body.input_schema.required_one_of).toEqual(CREATE_SCHEMA.requiredOneOf);
      expect(answer.body.input_schema.properties.owner.additionalProperties).toBe(false);
      expect(answer.body.input_schema.properties.name.description).toBe(CREATE_SCHEMA.properties.name.description);
      expect(answer.body.action).toBe('create');
    });

    it('refuse a bulk call whole, counting every unknown key and mapping each holder to what it admits', async () => {
      const items = Array.from({ length: 15 }, (_, i) => ({ title: `t${i}`, colour: 'red' }));
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'Bulk', project: 'p', items, labels: { urgent: { color: 'red', shade: 2 } } } });
      expect(answer.body).toMatchObject({ error: 'unknown_params', unknown_count: 16 });
      expect(answer.body.unknown).toEqual([
        'items[0].colour',
        'items[1].colour',
        'items[2].colour',
        'items[3].colour',
        'items[4].colour',
        'items[5].colour',
        'items[6].colour',
        'items[7].colour',
        'items[8].colour',
        'items[9].colour',
      ]);
      expect(answer.body.allowed['']).toEqual(Object.keys(CREATE_SCHEMA.properties).sort());
      expect(answer.body.allowed['items[9]']).toEqual(['done', 'title']);
      expect(answer.body.allowed.labels).toBeUndefined();
      expect(answer.body.message).toBe(
        `The data of action "create" of tool "tasks" holds 16 unknown key(s): ${answer.body.unknown.join(', ')}, …. "allowed" lists the keys each object on the way admits.`,
      );
    });

    it('map an object that admits any key to <any string key> on the way to an unknown one', async () => {
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'L', project: 'p', labels: { urgent: { shade: 2 } } } });
      expect(answer.body.allowed).toEqual({ '': Object.keys(CREATE_SCHEMA.properties).sort(), labels: ['<any string key>'], 'labels.urgent': ['color'] });
    });

    it('refuse a __proto__ key at a closed level like any unknown key', async () => {
      const answer = await callToolRaw(app().server, 'tasks', '{"action": "create", "data": {"name": "P", "project": "p", "owner": {"__proto__": {"admin": true}}}}');
      expect(answer.body).toMatchObject({ error: 'unknown_params', unknown: ['owner.__proto__'] });
      expect(({} as { admin?: unknown }).admin).toBeUndefined();
    });

    it('bracket-quote a key that is no identifier as the JSON string of that key, control characters escaped once', async () => {
      const sent = ['a.b', 'line\nbreak', 'tab\there', 'nul\u0000', 'sep\u2028x', 'del\u007f'];
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'K', project: 'p', owner: Object.fromEntries(sent.map((k) => [k, 1])) } });
      expect(answer.body.error).toBe('unknown_params');
      const keys = (answer.body.unknown as string[]).map((path) => {
        expect(path).toMatch(/^owner\[".*"\]$/);
        expect(path).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
        return JSON.parse(path.slice('owner['.length, -1)) as string;
      });
      expect(keys.sort()).toEqual([...sent].sort());
    });

    it('check every value with formats asserted, listing the first ten offending paths without quoting a sent value', async () => {
      const items = Array.from({ length: 12 }, () => ({ done: 'SENT-VALUE' }));
      const answer = await callTool(app().server, 'tasks', { action: 'create', data: { name: 'V', project: 'p', due: 'SENT-VALUE', items } });
      expect(answer.body).toMatchObject({ error: 'invalid_values', invalid_count: 13 });
      expect(answer.body.invalid.map((i: { path: string }) => i.path)).toEqual([
        'due',
        'items[0].done',
        'items[1].done',
        'items[2].done',
        'items[3].done',
        'items[4].done',
        'items[5].done',
        'items[6].done',
        'items[7].done',
        'items[8].done',
      ]);
      expect(answer.body.invalid[0].problems).toEqual(['must be a valid date, such as "2026-07-28"']);
      expect(answer.body.message).toBe(
        'The data of action "create" of tool "tasks" holds 13 invalid value(s): due: must be a valid date, such as "2026-07-28"; ' +
          Array.from({ length: 9 }, (_, i) => `items[${i}].done: must be a boolean`).join('; ') +
          '; ….',
      );
      expect(JSON.stringify(answer.result)).not.toContain('SENT-VALUE');
    });

    it('answer an unknown tool with -32602 naming it, not with a tool result', async () => {
      const answer = await callTool(app().server, 'nope', {});
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toContain('"nope"');
    });
  });
});

/** An action tool whose one action requires two properties, and another that needs one of two. */
@McpTool({ name: 'links', description: 'Links two items.' })
class LinksTool {
  @McpAction({ description: 'Link one item to another', properties: { from: { type: 'string' }, to: { type: 'string' } }, required: ['from', 'to'] })
  link(data: { from: string; to: string }) {
    return `${data.from} -> ${data.to}`;
  }

  @McpAction({ description: 'Find a link', properties: { fromId: { type: 'string' }, toId: { type: 'string' } }, requiredOneOf: [['fromId'], ['toId']] })
  find(data: { fromId?: string; toId?: string }) {
    return data.fromId ?? data.toId;
  }
}

describe('an action requiring two properties', () => {
  const app = useTestApp({ providers: [LinksTool] });

  it('names one missing property in the singular, two in the plural', async () => {
    const one = await callTool(app().server, 'links', { action: 'link', data: { from: 'a' } });
    expect(one.body).toMatchObject({ error: 'missing_required', action: 'link', missing: ['to'] });
    expect(one.body.message).toBe('The data of action "link" of tool "links" is missing required property "to".');
    const two = await callTool(app().server, 'links', { action: 'link', data: {} });
    expect(two.body).toMatchObject({ error: 'missing_required', action: 'link', missing: ['from', 'to'] });
    expect(two.body.message).toBe('The data of action "link" of tool "links" is missing required properties "from", "to".');
  });

  it('names, beside the missing properties, the unknown keys sent in their place (as the next gate would)', async () => {
    const misnamed = await callTool(app().server, 'links', { action: 'link', data: { From: 'a', target: 'b', to: 'c' } });
    expect(misnamed.body).toMatchObject({ error: 'missing_required', action: 'link', missing: ['from'] });
    expect(misnamed.body.message).toBe(
      'The data of action "link" of tool "links" is missing required property "from"; it also holds 2 unknown key(s): From (did you mean "from"?), target.',
    );
    const grouped = await callTool(app().server, 'links', { action: 'find', data: { from_id: 'a' } });
    expect(grouped.body).toMatchObject({ error: 'unsatisfied_required_one_of', action: 'find' });
    expect(grouped.body.message).toBe(
      'The data of action "find" of tool "links" needs every property of at least one of these groups: ["fromId"] or ["toId"]; it also holds 1 unknown key(s): from_id (did you mean "fromId"?).',
    );
    // Mended in one retry: the required key in place of the unknown one.
    const mended = await callTool(app().server, 'links', { action: 'link', data: { from: 'a', to: 'c' } });
    expect({ isError: mended.result.isError, body: mended.body }).toEqual({ isError: undefined, body: 'a -> c' });
  });
});

/** An action tool with recursive data: a tree property with its own `$id` (so `#` inside it is the tree), and a copy of it by `#/properties/…`. */
@McpTool({ name: 'trees', description: 'Plants trees.' })
class TreesTool {
  @McpAction({
    description: 'Plant a tree',
    properties: {
      tree: {
        $id: 'urn:example:tree',
        type: 'object',
        properties: { name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#' } } },
        required: ['name'],
      },
      spare: { $ref: '#/properties/tree' },
    },
    required: ['tree'],
  })
  plant(data: unknown) {
    return JSON.stringify(data);
  }
}

describe('an action whose data is recursive', () => {
  const app = useTestApp({ providers: [TreesTool] });

  it('checks every level against the recursive schema when it carries its own $id: a nested node without a name is refused', async () => {
    const tree = { name: 'oak', kids: [{ name: 'twig', kids: [{ name: 'leaf' }] }] };
    expect((await callTool(app().server, 'trees', { action: 'plant', data: { tree, spare: tree } })).body).toEqual({ tree, spare: tree });
    for (const data of [{ tree: { name: 'oak', kids: [{ kids: [] }] } }, { tree, spare: { name: 'elm', kids: [{}] } }]) {
      const refused = await callTool(app().server, 'trees', { action: 'plant', data });
      expect(refused.body).toMatchObject({ error: 'invalid_values', invalid: [{ problems: ['missing required property "name"'] }] });
    }
  });
});

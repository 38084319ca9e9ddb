import { describe, expect, it } from '@jest/globals';

import { post, rpc } from '../support/mcp-client.js';
import { useSampleApp } from '../support/sample-app.js';
import { taskCall, waitForStatus } from '../support/task-tools.js';
import { callTool } from '../support/tool-call.js';

describe("the sample app's tasks tool", () => {
  const server = useSampleApp();

  it('is listed beside the other sample tools and help', async () => {
    const listed = await post(server(), rpc('tools/list'));
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['delete_note', 'echo', 'help', 'reindex_notes', 'tasks', 'weather']);
  });

  it('creates a task (defaults applied, a nested assignee), hints the next call, and finds it again by title', async () => {
    const created = await callTool(server(), 'tasks', {
      action: 'create',
      data: { title: 'Release', due: '2026-08-01', assignee: { name: 'Ada', email: 'ada@example.com' } },
    });
    expect(created.body).toMatchObject({ title: 'Release', priority: 'normal', status: 'open', assignee: { name: 'Ada' } });
    expect(created.body.hints).toEqual([{ tool: 'tasks', action: 'complete', description: 'Mark it done when finished', example: { id: created.body.id } }]);
    const found = await callTool(server(), 'tasks', { action: 'get', data: { title: 'Release' } });
    expect(found.body.id).toBe(created.body.id);
  });

  it('lists with its defaults and completes with its action context', async () => {
    const created = await callTool(server(), 'tasks', { action: 'create', data: { title: 'Listed' } });
    const listed = await callTool(server(), 'tasks', { action: 'list' });
    expect(listed.body.tasks.map((task: { title: string }) => task.title)).toContain('Listed');
    const completed = await callTool(server(), 'tasks', { action: 'complete', data: { id: created.body.id } });
    expect(completed.body).toMatchObject({ status: 'done', context: { done: expect.any(Number) } });
  });

  it('exports as an MCP task for a client declaring the tasks extension, and synchronously otherwise', async () => {
    await callTool(server(), 'tasks', { action: 'create', data: { title: 'Export me' } });
    const created = await taskCall(server(), 'tasks', { action: 'export', data: { status: 'open' } });
    expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await waitForStatus(server(), created.body.result.taskId, ['completed']);
    const exported = JSON.parse(done.result.content[0].text);
    expect(exported.csv.split('\n')[0]).toBe('id,title,status,due');
    expect(exported.csv).toContain('"Export me",open');
    const direct = await callTool(server(), 'tasks', { action: 'export', data: { status: 'open' } });
    expect(direct.body.rows).toBe(exported.rows);
  });

  it('refuses what its schemas refuse: a required_one_of group, a nested unknown key, a format', async () => {
    expect((await callTool(server(), 'tasks', { action: 'get', data: {} })).body.error).toBe('unsatisfied_required_one_of');
    expect((await callTool(server(), 'tasks', { action: 'create', data: { title: 'x', assignee: { name: 'A', phone: '1' } } })).body.unknown).toEqual(['assignee.phone']);
    expect((await callTool(server(), 'tasks', { action: 'create', data: { title: 'x', due: 'soon' } })).body.invalid).toEqual([
      { path: 'due', problems: ['must be a valid date, such as "2026-07-28"'] },
    ]);
  });
});

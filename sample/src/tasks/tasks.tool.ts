import { setTimeout as sleep } from 'node:timers/promises';

import { McpAction, McpTool, fail, ok, type McpContext, type McpHint, type McpToolHooks } from '../../../lib/index.js';
import { MAX_TASKS, TasksRepository, type Task } from './tasks.repository.js';

/** How long exporting one task takes in the sample, so the export is long enough to run as an MCP task. */
const EXPORT_STEP_MS = 100;

/**
 * An action tool: one tool, several named actions, each with its own action schema. Its repository is injected
 * by Nest. Calls that get the data wrong are answered by the dispatch gates, pointing at `help`. Its `export`
 * action is long-running: a client declaring the tasks extension gets an MCP task to poll (docs/tasks.md).
 */
@McpTool({ name: 'tasks', title: 'Tasks', description: 'Create, find, list and complete tasks.' })
export class TasksTool implements Partial<McpToolHooks> {
  constructor(private readonly repo: TasksRepository) {}

  @McpAction({
    description: 'Create a task',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 200, description: 'What is to be done' },
      due: { type: 'string', format: 'date', description: 'Due date, YYYY-MM-DD' },
      priority: { type: 'string', enum: ['low', 'normal', 'high'] },
      assignee: {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 100 }, email: { type: 'string', format: 'email', maxLength: 254 } },
        required: ['name'],
      },
    },
    required: ['title'],
    defaults: { priority: 'normal' },
    notes: 'Returns the stored task with its id.\nA task starts open.',
    related: ['get', 'complete'],
    examples: [{ title: 'Write the release notes', due: '2026-08-01', assignee: { name: 'Ada', email: 'ada@example.com' } }],
  })
  create(data: Omit<Task, 'id' | 'status'>) {
    const task = this.repo.add(data);
    if (!task) return fail(`this sample keeps at most ${MAX_TASKS} tasks`);
    return ok(task, { id: task.id });
  }

  @McpAction({
    description: 'Get one task, by id or by title',
    properties: { id: { type: 'integer', minimum: 1 }, title: { type: 'string' } },
    requiredOneOf: [['id'], ['title']],
  })
  get(data: { id?: number; title?: string }) {
    const task = data.id !== undefined ? this.repo.byId(data.id) : this.repo.byTitle(data.title!);
    return task ?? fail(data.id !== undefined ? `no task has id ${data.id}` : 'no task has that title');
  }

  @McpAction({
    description: 'List tasks by status',
    properties: {
      status: { type: 'string', enum: ['open', 'done'] },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
    },
    defaults: { status: 'open', limit: 20 },
  })
  list(data: { status: Task['status']; limit: number }) {
    return { tasks: this.repo.list(data.status, data.limit) };
  }

  @McpAction({ description: 'Mark a task done', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] })
  complete(data: { id: number }) {
    const task = this.repo.byId(data.id);
    if (!task) return fail(`no task ${data.id}`, { id: data.id });
    task.status = 'done';
    return ok(task);
  }

  @McpAction({
    description: 'Export every task as CSV (long-running: an MCP task for clients declaring the tasks extension)',
    properties: { status: { type: 'string', enum: ['open', 'done'] } },
    taskSupport: 'optional',
  })
  async export(data: { status?: Task['status'] }, ctx: McpContext) {
    const rows = ['id,title,status,due'];
    for (const status of data.status ? [data.status] : (['open', 'done'] as const)) {
      for (const task of this.repo.list(status, 100)) {
        await sleep(EXPORT_STEP_MS, undefined, { signal: ctx.signal }).catch(() => undefined);
        if (ctx.signal.aborted) return fail('the export was cancelled'); // a cancelled task drops this answer
        rows.push([task.id, JSON.stringify(task.title), task.status, task.due ?? ''].join(','));
      }
    }
    return { csv: rows.join('\n'), rows: rows.length - 1 };
  }

  hints(action: string, hintContext: unknown): McpHint[] {
    const { id } = hintContext as { id: number };
    if (action === 'create') return [{ tool: 'tasks', action: 'complete', description: 'Mark it done when finished', example: { id } }];
    if (action === 'complete') return [{ tool: 'tasks', action: 'list', description: 'See which tasks exist' }];
    return [];
  }

  actionContext(action: string) {
    return action === 'list' || action === 'complete' ? { open: this.repo.count('open'), done: this.repo.count('done') } : null;
  }
}

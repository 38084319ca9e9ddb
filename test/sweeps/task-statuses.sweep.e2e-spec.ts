import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { TASK_STATUSES, type McpTaskStatus } from '../../lib/index.js';
import { TASK_TOOLS, taskCall, tasksRequest, waitForStatus } from '../support/task-tools.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * One cell per task status: how a task reaches it, and the one field `tasks/get` inlines for it (none for
 * `working` and `cancelled`). `satisfies Record<McpTaskStatus, …>` closes the list: a new status fails the type
 * check until it has a cell.
 */
const CELLS = {
  working: { reach: (t: TestApp) => start(t, 'sleeper', {}), inlined: undefined },
  input_required: { reach: (t: TestApp) => start(t, 'interview', {}), inlined: 'inputRequests' },
  completed: { reach: (t: TestApp) => start(t, 'must_task', {}), inlined: 'result' },
  failed: { reach: (t: TestApp) => start(t, 'breaks', { how: 'method' }), inlined: 'error' },
  cancelled: {
    reach: async (t: TestApp) => {
      const taskId = await start(t, 'sleeper', {});
      await tasksRequest(t.server, 'tasks/cancel', { taskId });
      return taskId;
    },
    inlined: undefined,
  },
} satisfies Record<McpTaskStatus, { reach: (t: TestApp) => Promise<string>; inlined: string | undefined }>;

const INLINED = ['inputRequests', 'result', 'error'];

async function start(t: TestApp, tool: string, args: Record<string, unknown>): Promise<string> {
  return (await taskCall(t.server, tool, args)).body.result.taskId as string;
}

describe('task status sweep: every status is reached, and tasks/get inlines exactly its payload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: TASK_TOOLS });
  });
  afterAll(() => t.close());

  it('has one cell per status', () => {
    expect(Object.keys(CELLS).sort()).toEqual([...TASK_STATUSES].sort());
  });

  it.each([...TASK_STATUSES])('%s', async (status) => {
    const cell: { reach: (t: TestApp) => Promise<string>; inlined: string | undefined } = CELLS[status];
    const taskId = await cell.reach(t);
    const task = await waitForStatus(t.server, taskId, [status]);
    expect(task).toMatchObject({ resultType: 'complete', taskId, status });
    expect(INLINED.filter((key) => key in task)).toEqual(cell.inlined ? [cell.inlined] : []);
    if (status === 'working' || status === 'input_required') await tasksRequest(t.server, 'tasks/cancel', { taskId });
  });
});

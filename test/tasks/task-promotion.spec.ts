import { describe, expect, it } from '@jest/globals';

import type { McpRequestRecord } from '../../lib/contracts/request-record.js';
import type { InputChannel } from '../../lib/mrtr/input-channel.js';
import type { InputChecks } from '../../lib/mrtr/input-request.js';
import { TaskPromotion } from '../../lib/tasks/task-promotion.js';
import type { TaskRuns } from '../../lib/tasks/task-runs.js';

describe('TaskPromotion', () => {
  it('starts aborted when its request was cancelled before it was made: startTask() is refused, and no task is created', async () => {
    const left = new AbortController();
    left.abort(new Error('the client left'));
    const created: unknown[] = [];
    const tasks = { create: (start: unknown) => (created.push(start), undefined) } as unknown as TaskRuns;
    const round: InputChannel = { ask: () => Promise.resolve(undefined), toolState: undefined, close: () => undefined };
    const promotion = new TaskPromotion(tasks, {
      tool: 't',
      action: undefined,
      record: {} as McpRequestRecord,
      round,
      requestSignal: left.signal,
      checks: {} as InputChecks,
    });
    expect(promotion.abort.signal.reason).toEqual(new Error('the client left'));
    await expect(promotion.start()).rejects.toThrow('startTask() was called after the call was cancelled (its client went away)');
    expect(created).toEqual([]);
  });
});

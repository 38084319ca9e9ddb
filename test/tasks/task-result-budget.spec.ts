import { describe, expect, it } from '@jest/globals';

import { TaskResultBudget } from '../../lib/tasks/task-result-budget.js';

describe('TaskResultBudget', () => {
  it('admits results up to maxBytes together and refuses one that would pass it, counting nothing for it', () => {
    const budget = new TaskResultBudget(100, () => 0);
    expect(budget.admit(60, 10)).toBe(true);
    expect(budget.admit(50, 10)).toBe(false);
    expect(budget.admit(40, 10)).toBe(true);
    expect(budget.heldBytes).toBe(100);
  });

  it('releases each result at its expiry, whatever the order they were admitted in', () => {
    let now = 0;
    const budget = new TaskResultBudget(1_000, () => now);
    const expiries = [50, 10, 40, 20, 30, 60, 5];
    for (const [i, expiresAt] of expiries.entries()) expect(budget.admit(i + 1, expiresAt)).toBe(true);
    const held = (at: number) => expiries.reduce((sum, expiresAt, i) => (expiresAt > at ? sum + i + 1 : sum), 0);
    for (now = 0; now <= 70; now += 5) expect([now, budget.heldBytes]).toEqual([now, held(now)]);
  });

  it('admits again once earlier results expire', () => {
    let now = 0;
    const budget = new TaskResultBudget(100, () => now);
    expect(budget.admit(100, 10)).toBe(true);
    expect(budget.admit(1, 20)).toBe(false);
    now = 10;
    expect(budget.admit(100, 20)).toBe(true);
  });
});

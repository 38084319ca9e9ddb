import { describe, expect, it } from '@jest/globals';

import { ProgressReporter } from '../../lib/context/progress-reporter.js';
import type { AnswerStream } from '../../lib/response/answer-stream.js';

/** An answer stream whose socket is full for the first `dropped` notifications (each dropped), then takes every one. */
function answerDropping(dropped: number) {
  const sent: unknown[] = [];
  let calls = 0;
  const answer = { notify: (notification: unknown) => (calls++ < dropped ? false : (sent.push(notification), true)) };
  return { answer: answer as unknown as AnswerStream, sent };
}

describe('ProgressReporter', () => {
  it('sends again a value whose notification was dropped at a full buffer: only a sent value raises the bar', () => {
    const { answer, sent } = answerDropping(1);
    const progress = new ProgressReporter('t', answer);
    expect(progress.report(5)).toBe(false);
    expect(progress.report(5)).toBe(true);
    expect(progress.report(5)).toBe(false);
    expect(sent).toEqual([{ method: 'notifications/progress', params: { progressToken: 't', progress: 5 } }]);
  });

  it.each<[string, unknown, unknown, unknown]>([
    ['a progress that is a numeric string', '1', undefined, undefined],
    ['a total that is a numeric string', 1, '2', undefined],
    ['a total that is null', 1, null, undefined],
    ['a message that is an object', 1, 2, { text: 'half' }],
    ['a message that is a boolean', 1, 2, true],
  ])('refuses %s with a TypeError, sending nothing', (_what, progress, total, message) => {
    const { answer, sent } = answerDropping(0);
    expect(() => new ProgressReporter('t', answer).report(progress as number, total as number, message as string)).toThrow(TypeError);
    expect(sent).toEqual([]);
  });
});

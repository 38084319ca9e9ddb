import type { AnswerBounds } from '../../lib/response/answer-stream.js';
import { MountClosing } from '../../lib/response/mount-closing.js';
import { WaitingAnswers } from '../../lib/response/waiting-answers.js';

/** The bounds a mount at `/mcp` with default options gives its answers, for attaching an answer stream outside a mount. */
export function answerBounds(overrides: Partial<AnswerBounds> = {}): AnswerBounds {
  return {
    stallMs: 30_000,
    keepAliveMs: 30_000,
    mount: '/mcp',
    shutdown: new MountClosing({ shutdownGraceMs: 10_000 }),
    waiting: new WaitingAnswers({ maxWaitingBytes: 128 * 1024 * 1024 }),
    ...overrides,
  };
}

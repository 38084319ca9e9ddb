import type { AnswerStream } from '../response/answer-stream.js';

/** A request's progress token (`_meta.progressToken`): a string or an integer, echoed unchanged. @publicApi */
export type McpProgressToken = string | number;

/**
 * Progress of one request (`ctx.progress`) as `notifications/progress` on its SSE stream: sent only with a
 * `progressToken` (echoed unchanged), each value above the last (others dropped); a non-finite value is a TypeError.
 * See https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/progress.
 * Proven by: test/e2e/streaming.e2e-spec.ts ("progress")
 */
export class ProgressReporter {
  private last = -Infinity;

  constructor(
    /** The request's progress token, or undefined (then nothing is ever sent). */
    readonly token: McpProgressToken | undefined,
    private readonly answer: AnswerStream | undefined,
  ) {}

  /** Reports progress; returns whether a notification was sent. */
  report(progress: number, total?: number, message?: string): boolean {
    if (typeof progress !== 'number' || !Number.isFinite(progress)) throw new TypeError('progress must be a finite number');
    if (total !== undefined && (typeof total !== 'number' || !Number.isFinite(total))) throw new TypeError('total must be a finite number');
    if (message !== undefined && typeof message !== 'string') throw new TypeError('message must be a string');
    if (this.token === undefined || !this.answer || progress <= this.last) return false;
    const params: Record<string, unknown> = { progressToken: this.token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    const sent = this.answer.notify({ method: 'notifications/progress', params });
    if (sent) this.last = progress;
    return sent;
  }
}

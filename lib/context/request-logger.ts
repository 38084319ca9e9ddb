import { LOG_LEVELS, type McpLogLevel } from '../mcp.constants.js';
import type { AnswerStream } from '../response/answer-stream.js';
import { bounded } from '../util/bounded.js';

const rank = (level: McpLogLevel): number => LOG_LEVELS.indexOf(level);

/** A JSON value for a log message: the data as given when it serializes, its bounded rendering otherwise. */
function loggable(data: unknown): unknown {
  try {
    if (JSON.stringify(data) !== undefined) return data;
  } catch {
    // not JSON (a cycle, a BigInt): rendered below
  }
  return bounded(data, 1000);
}

/** Sends one log message at a fixed level; returns whether it was sent. @publicApi */
export type McpLogMethod = (data: unknown, logger?: string) => boolean;

/** One method per level: `ctx.log.debug(data)`, `ctx.log.info(data, 'db')`, … @publicApi */
export interface McpRequestLogger extends Record<McpLogLevel, McpLogMethod> {}

/**
 * The request logger (`ctx.log`): `notifications/message` on this request's SSE stream (deprecated in 2026-07-28),
 * sent only when `_meta` logLevel is set and the level is at or above it. Data reaches the client as written:
 * never log secrets or personal data. See https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging
 * Proven by: test/e2e/streaming.e2e-spec.ts ("log level filtering")
 * @publicApi
 */
export class McpRequestLogger {
  constructor(
    /** The level the request asked for, or undefined (then nothing is ever sent). */
    readonly level: McpLogLevel | undefined,
    private readonly answer: AnswerStream | undefined,
    private readonly defaultLogger: string | undefined,
    /** Whether it sends nothing from now on (its call became a task, which carries no logs). */
    private readonly silenced: () => boolean = () => false,
  ) {
    for (const level of LOG_LEVELS) this[level] = (data, logger) => this.log(level, data, logger);
  }

  /**
   * Whether a message at `level` would be sent now (use it to skip building expensive data): not while the client
   * falls behind reading, when a message would be dropped, so a dropped one is never serialized.
   */
  enabled(level: McpLogLevel): boolean {
    return this.level !== undefined && rank(level) >= rank(this.level) && this.answer !== undefined && this.answer.open && !this.answer.backedUp && !this.silenced();
  }

  /** Sends one log message at `level`; returns whether it was sent. */
  log(level: McpLogLevel, data: unknown, logger: string | undefined = this.defaultLogger): boolean {
    if (!LOG_LEVELS.includes(level)) throw new TypeError(`unknown log level ${bounded(level, 40)}; one of ${LOG_LEVELS.join(', ')}`);
    if (!this.enabled(level)) return false;
    const params: Record<string, unknown> = { level, data: loggable(data) };
    if (logger !== undefined) params.logger = logger;
    return this.answer!.notify({ method: 'notifications/message', params });
  }
}

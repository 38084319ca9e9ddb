import type { AnswerStream } from '../response/answer-stream.js';
import { bounded } from '../util/bounded.js';

/** The log levels, lowest to highest (RFC 5424 severities, DIGEST g.4). @publicApi */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** One log level. @publicApi */
export type McpLogLevel = (typeof LOG_LEVELS)[number];

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

/**
 * The request logger (`ctx.log`): log messages a tool sends to the client as `notifications/message` on this
 * request's own SSE stream (deprecated in 2026-07-28, kept for clients that ask).
 *
 * Rule it owns: a message is sent only when the request's `_meta["io.modelcontextprotocol/logLevel"]` is set and
 * the message's level is at or above it (R202); never on another request's stream, never after the final
 * response (the answer stream's rules). The first message sent switches the answer to SSE. `logger` defaults
 * to the tool's name. Log data reaches the client as written: never log secrets or personal data (R206).
 * Proven by: test/e2e/streaming.e2e-spec.ts ("log level filtering")
 * @publicApi
 */
export class McpRequestLogger {
  constructor(
    /** The level the request asked for, or undefined (then nothing is ever sent). */
    readonly level: McpLogLevel | undefined,
    private readonly answer: AnswerStream | undefined,
    private readonly defaultLogger: string | undefined,
  ) {}

  /** Whether a message at `level` would be sent (use it to skip building expensive data). */
  enabled(level: McpLogLevel): boolean {
    return this.level !== undefined && rank(level) >= rank(this.level) && (this.answer?.open ?? false);
  }

  /** Sends one log message at `level`; returns whether it was sent. */
  log(level: McpLogLevel, data: unknown, logger: string | undefined = this.defaultLogger): boolean {
    if (!LOG_LEVELS.includes(level)) throw new TypeError(`unknown log level ${bounded(level, 40)}; one of ${LOG_LEVELS.join(', ')}`);
    if (!this.enabled(level)) return false;
    const params: Record<string, unknown> = { level, data: loggable(data) };
    if (logger !== undefined) params.logger = logger;
    return this.answer!.notify({ method: 'notifications/message', params });
  }

  debug(data: unknown, logger?: string): boolean {
    return this.log('debug', data, logger);
  }
  info(data: unknown, logger?: string): boolean {
    return this.log('info', data, logger);
  }
  notice(data: unknown, logger?: string): boolean {
    return this.log('notice', data, logger);
  }
  warning(data: unknown, logger?: string): boolean {
    return this.log('warning', data, logger);
  }
  error(data: unknown, logger?: string): boolean {
    return this.log('error', data, logger);
  }
  critical(data: unknown, logger?: string): boolean {
    return this.log('critical', data, logger);
  }
  alert(data: unknown, logger?: string): boolean {
    return this.log('alert', data, logger);
  }
  emergency(data: unknown, logger?: string): boolean {
    return this.log('emergency', data, logger);
  }
}

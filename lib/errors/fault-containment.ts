import { types } from 'node:util';

import { bounded, cut, scrub } from '../util/bounded.js';
import { isError } from '../util/is-error.js';

/**
 * Marks a thrown value as not a fault: a tool run rethrows it to the method handler that knows it (an
 * `McpMethodError` raised on purpose, the input-required signal). Any other thrown value is contained, never
 * reaching the wire as its text or stack, and quoted only bounded:
 *
 * | thrown in                                  | caller gets                                        | event              | contained by          |
 * |--------------------------------------------|----------------------------------------------------|--------------------|-----------------------|
 * | a tool run (handler, hook, result building) | `isError` result `{errorType: "tool_fault", …}`    | `mcp:tool:error`   | `DispatchService`     |
 * | the auth provider                          | 500 + -32603, never a pass                         | `mcp:auth:error`   | `McpExceptionFilter`  |
 * | anywhere else past routing                 | 500 + -32603 naming the method                     | `mcp:method:error` | `McpExceptionFilter`  |
 *
 * A Nest `HttpException` is not a fault either: out of a tool run it is the tool's answer, an `isError` result with
 * its status and message; out of a resource's read, a prompt's get or a completer, the method's error
 * (`http-exception.ts`); out of the auth provider, with a status of 401, 403 or 400, the refusal it names.
 * @publicApi
 */
export const PASSES_CONTAINMENT = Symbol.for('nest-mcp.passes-containment');

/** Whether a thrown value is meant to pass fault containment. Total. @publicApi */
export function passesContainment(thrown: unknown): boolean {
  try {
    return typeof thrown === 'object' && thrown !== null && (thrown as Record<symbol, unknown>)[PASSES_CONTAINMENT] === true;
  } catch {
    return false;
  }
}

/** The longest fault message a tool_fault result carries. */
const FAULT_MESSAGE_BOUND = 300;

/** A fault's kind: an Error's class name (any realm), `Proxy` for a proxy (its traps never run), else the JS type. Total. */
export function faultKind(thrown: unknown): string {
  if (types.isProxy(thrown)) return 'Proxy';
  try {
    if (isError(thrown)) {
      const name = thrown.constructor?.name || thrown.name;
      return typeof name === 'string' && name !== '' ? bounded(name, 60) : 'Error';
    }
  } catch {
    return 'Error';
  }
  return thrown === null ? 'null' : typeof thrown;
}

/** The longest fault stack the telemetry logger writes. */
const FAULT_STACK_BOUND = 16_384;

/** A line break that starts a stack frame (`\n    at …`): the only one a logged stack keeps as a break. */
const FRAME_BREAK = /\n(?= {4}at )/;

/**
 * A fault's stack trace for a server log (never the wire), or undefined when it has none; bounded, and scrubbed
 * but for the breaks between its frames: a message quoting what a caller sent (a file path in Node's own `ENOENT`)
 * cannot start a forged log line or carry a terminal escape. Total.
 */
export function faultStack(thrown: unknown): string | undefined {
  try {
    const stack = isError(thrown) ? thrown.stack : undefined;
    return typeof stack === 'string'
      ? cut(
          stack
            .slice(0, FAULT_STACK_BOUND + 1)
            .split(FRAME_BREAK)
            .map(scrub)
            .join('\n'),
          FAULT_STACK_BOUND,
        )
      : undefined;
  } catch {
    return undefined;
  }
}

/** A fault's message, bounded: an Error's own message, or the bounded rendering of any other value. Total. */
export function faultMessage(thrown: unknown): string {
  try {
    if (isError(thrown)) return bounded(String(thrown.message), FAULT_MESSAGE_BOUND);
  } catch {
    // A hostile Error (a throwing getter, a Proxy): the generic rendering below.
  }
  return bounded(thrown, FAULT_MESSAGE_BOUND);
}

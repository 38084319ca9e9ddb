import { types } from 'node:util';
import { bounded } from '../util/bounded.js';

/**
 * Fault containment: what every fault becomes. A fault is any thrown value, from a consumer's code or ours; none
 * ever reaches the wire as its text or stack, takes the process down, or leaves a request unanswered.
 *
 * | where it is thrown                                 | what the caller gets                                         | event             | contained by                         |
 * |----------------------------------------------------|--------------------------------------------------------------|-------------------|--------------------------------------|
 * | a tool run (handler, hook, result building)        | an `isError` tool result `{errorType: "tool_fault", tool, exception, message}` | `mcp:tool:error`  | `DispatchService` (tools/)           |
 * | the auth provider (`McpAuth`)                      | 500 + -32603, never a pass                                   | `mcp:auth:error`  | `McpAuthGuard` + `McpExceptionFilter` |
 * | anywhere else past routing, or an unsendable answer | 500 + -32603 naming the method (method containment)          | `mcp:method:error`| `McpExceptionFilter` (response/)     |
 *
 * A thrown value carrying {@link PASSES_CONTAINMENT} is not a fault: the tool run rethrows it to the method
 * handler that knows what it means (an `McpMethodError` a tool raised on purpose, the input-required signal).
 * Everything quoted from a fault is bounded: its kind ({@link faultKind}) and its message ({@link faultMessage}).
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
export const FAULT_MESSAGE_BOUND = 300;

/**
 * A fault's kind: an Error's class name (from another realm too), `Proxy` for a proxy (its traps never run),
 * or the JS type of any other thrown value. Total.
 */
export function faultKind(thrown: unknown): string {
  if (types.isProxy(thrown)) return 'Proxy';
  try {
    if (types.isNativeError(thrown) || thrown instanceof Error) {
      const name = (thrown as Error).constructor?.name || (thrown as Error).name;
      return typeof name === 'string' && name !== '' ? bounded(name, 60) : 'Error';
    }
  } catch {
    return 'Error';
  }
  return thrown === null ? 'null' : typeof thrown;
}

/** A fault's message, bounded: an Error's own message, or the bounded rendering of any other value. Total. */
export function faultMessage(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return bounded(String(thrown.message), FAULT_MESSAGE_BOUND);
  } catch {
    // A hostile Error (a throwing getter, a Proxy): the generic rendering below.
  }
  return bounded(thrown, FAULT_MESSAGE_BOUND);
}

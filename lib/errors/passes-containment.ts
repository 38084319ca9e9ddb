/**
 * The containment pass mark: a thrown value carrying it is not a fault. Fault containment (around a tool run)
 * rethrows it instead of turning it into a `tool_fault` result, so it reaches the method handler that knows
 * what it means: an `McpMethodError` a tool raised on purpose (a missing client capability, -32021), or the
 * signal that a multi round-trip request needs client input. Any other thrown value is a fault.
 * @publicApi
 */
export const PASSES_CONTAINMENT = Symbol.for('nest-mcp.passes-containment');

/** Whether a thrown value is meant to pass fault containment. @publicApi */
export function passesContainment(thrown: unknown): boolean {
  try {
    return typeof thrown === 'object' && thrown !== null && (thrown as Record<symbol, unknown>)[PASSES_CONTAINMENT] === true;
  } catch {
    return false;
  }
}

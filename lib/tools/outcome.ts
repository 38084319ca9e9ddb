/** Brands an outcome, so it is told apart from a tool's own data without `instanceof`. */
const OUTCOME = Symbol.for('nest-mcp.outcome');

/**
 * A handler's explicit success (with a hint context) or failure (an `isError` answer), built by {@link ok},
 * {@link fail} and {@link refuse}.
 * @publicApi
 */
export interface McpOutcome {
  /** `ok` for a success, `fail` for a failure the tool answers with, `refuse` for one the caller caused. */
  readonly kind: 'ok' | 'fail' | 'refuse';
  /** `ok`: the response data; `fail` and `refuse`: the reason, handed to the tool's `formatError`. */
  readonly value: unknown;
  /** When given, the tool's `hints` hook is called with it (and, on a failure, the answer becomes JSON). */
  readonly hintContext?: unknown;
  /** Whether a hint context was given (`undefined` is a legal one). */
  readonly hasHintContext: boolean;
}

function outcome(kind: McpOutcome['kind'], value: unknown, rest: unknown[]): McpOutcome {
  return Object.freeze({ [OUTCOME]: true, kind, value, hintContext: rest[0], hasHintContext: rest.length > 0 });
}

/**
 * A success: `data` becomes the result (and its `structuredContent` under an output schema); a `hintContext`
 * makes the tool's `hints` hook run.
 *
 * @example
 * ```ts
 * @McpAction({ description: 'Create a task', properties: { name: { type: 'string' } }, required: ['name'] })
 * create(data: { name: string }) {
 *   const task = this.repo.add(data.name);
 *   return ok(task, { id: task.id });
 * }
 * ```
 * @publicApi
 */
export function ok(data: unknown, ...hintContext: [] | [unknown]): McpOutcome {
  return outcome('ok', data, hintContext);
}

/**
 * A failure the tool answers with: `isError`, its text from `formatError(reason)`, or JSON `{error, hints?,
 * context?}` with a `hintContext`. Not a fault: nothing is thrown and no `mcp:tool:error` is emitted.
 * @publicApi
 */
export function fail(reason: unknown, ...hintContext: [] | [unknown]): McpOutcome {
  return outcome('fail', reason, hintContext);
}

/**
 * A refusal of the caller's request, answered like {@link fail} (`isError`, formatted by `formatError`) but
 * counted as the caller's error: `mcp:tool:stop` reports `errorKind: "dispatch"`, as for a dispatch-gate refusal.
 * For what the schema cannot say (an unknown id, a date in the past).
 *
 * @example
 * ```ts
 * run(args: { id: string }) {
 *   const note = this.notes.get(args.id);
 *   return note ?? refuse(`no note has id ${args.id}; list them with the "list" action`);
 * }
 * ```
 * @publicApi
 */
export function refuse(reason: unknown, ...hintContext: [] | [unknown]): McpOutcome {
  return outcome('refuse', reason, hintContext);
}

/** Whether a handler's return value is an {@link McpOutcome} built by `ok`, `fail` or `refuse`. */
export function isOutcome(value: unknown): value is McpOutcome {
  try {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[OUTCOME] === true;
  } catch {
    return false;
  }
}

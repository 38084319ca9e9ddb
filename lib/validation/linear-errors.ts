/**
 * ajv merges a failing `$ref`'s errors with `vErrors.concat(…)`, copying every error so far: with `allErrors`, N
 * failing references cost O(N²) on the event loop (hours for a few megabytes). Appending in place keeps the same
 * errors in the same order at O(N), so every ajv instance checking caller input with `allErrors` uses it.
 * Proven by: test/e2e/pipeline.e2e-spec.ts ("… in time linear in their number"),
 * test/e2e/plain-tools.e2e-spec.ts ("… under a recursive $ref …")
 */
const CONCAT = /\bvErrors\.concat\(/g;
const PUSH = /\bvErrors\.push\(/g;

/**
 * The most errors one capped check collects (see {@link cappedCheck}): a value can fail a union of shapes several
 * ways at each of its values, so its errors, not its size, set what describing them costs.
 */
export const DETAILED_CHECK_MAX_ERRORS = 1_000;

/** The global flag a capped check raises while it runs, and the mark of what the generated code throws past the cap. */
const CAPPED = Symbol.for('nest-mcp.capped-check');
const TOO_MANY = Symbol.for('nest-mcp.too-many-errors');

/** Stops a capped check past the cap (the flag raised): what the generated code's pushes and appends call first. */
function stopPastCap(into: unknown[]): void {
  if (into.length >= DETAILED_CHECK_MAX_ERRORS && (globalThis as Record<symbol, unknown>)[CAPPED] === true) throw { [TOO_MANY]: true };
}

// Generated code cannot import this module: it calls these two through the global symbols they are kept under, so
// each of its thousand error sites is one short call rather than its own copy of the cap check (code to load).
const PUSH_FN = Symbol.for('nest-mcp.capped-push');
const APPEND_FN = Symbol.for('nest-mcp.capped-append');
const globals = globalThis as Record<symbol, unknown>;
globals[PUSH_FN] ??= (into: unknown[], error: unknown): number => (stopPastCap(into), into.push(error));
globals[APPEND_FN] ??= (into: unknown[], from: readonly unknown[]): unknown[] => {
  for (let i = 0; i < from.length; i++) {
    stopPastCap(into);
    into.push(from[i]);
  }
  return into;
};
const APPEND = `globalThis[Symbol.for('nest-mcp.capped-append')](vErrors, `;
const CAPPED_PUSH = `globalThis[Symbol.for('nest-mcp.capped-push')](vErrors, `;

/**
 * The ajv `code` option that merges referenced schemas' errors in place (see the file comment), and stops a capped
 * check at {@link DETAILED_CHECK_MAX_ERRORS} errors.
 */
export const LINEAR_ERROR_MERGE = { process: (code: string): string => code.replace(CONCAT, APPEND).replace(PUSH, CAPPED_PUSH) } as const;

/**
 * Runs an every-problem validator of this module's making, stopped once it has collected
 * {@link DETAILED_CHECK_MAX_ERRORS} errors: `too_many` then, else whether the value passed. Only a check run here is
 * stopped; any other run of the same validator collects every error.
 */
export function cappedCheck(validate: (value: unknown) => boolean, value: unknown): boolean | 'too_many' {
  const flags = globalThis as Record<symbol, unknown>;
  flags[CAPPED] = true;
  try {
    return validate(value);
  } catch (thrown) {
    if (typeof thrown === 'object' && thrown !== null && TOO_MANY in thrown) return 'too_many';
    throw thrown;
  } finally {
    flags[CAPPED] = false;
  }
}

/**
 * The ajv options for consumer-written schemas that check what a caller sent: all errors (merged linearly),
 * formats asserted, never coercing nor filling defaults; a number JSON cannot carry (`1e400` parses as Infinity)
 * is no `number` nor `integer` (`strictNumbers`, which `strict: false` would turn off). Generated code is not optimized: that pass costs about a
 * third of each compilation at module init, and the validators it skips tidying check as fast. No error messages:
 * problems are worded from the keyword (`keyword-wordings.ts`), so ajv's would only lengthen each compilation.
 */
export const CALLER_VALUE_CHECK = {
  strict: false,
  strictNumbers: true,
  messages: false,
  allErrors: true,
  validateFormats: true,
  coerceTypes: false,
  useDefaults: false,
  code: { ...LINEAR_ERROR_MERGE, optimize: false },
} as const;

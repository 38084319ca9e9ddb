/**
 * ajv merges a failing `$ref`'s errors with `vErrors.concat(…)`, copying every error so far: with `allErrors`, N
 * failing references cost O(N²) on the event loop (hours for a few megabytes). Appending in place keeps the same
 * errors in the same order at O(N), so every ajv instance checking caller input with `allErrors` uses it.
 * Proven by: test/e2e/pipeline.e2e-spec.ts ("… in time linear in their number"),
 * test/e2e/plain-tools.e2e-spec.ts ("… under a recursive $ref …")
 */
const CONCAT = /\bvErrors\.concat\(/g;
const APPEND = '((into, from) => { for (let i = 0; i < from.length; i++) into.push(from[i]); return into; })(vErrors, ';

/** The ajv `code` option that merges referenced schemas' errors in place (see the file comment). */
export const LINEAR_ERROR_MERGE = { process: (code: string): string => code.replace(CONCAT, APPEND) } as const;

/**
 * The ajv options for consumer-written schemas that check what a caller sent: all errors (merged linearly),
 * formats asserted, never coercing nor filling defaults; a number JSON cannot carry (`1e400` parses as Infinity)
 * is no `number` nor `integer` (`strictNumbers`, which `strict: false` would turn off). Generated code is not optimized: that pass costs about a
 * third of each compilation at module init, and the validators it skips tidying check as fast. No error messages:
 * problems are worded from the keyword (`schema-problems.ts`), so ajv's would only lengthen each compilation.
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

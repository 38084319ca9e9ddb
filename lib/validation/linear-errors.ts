/**
 * What ajv's generated code does with the errors of a failing referenced schema (`$ref`, a recursive one
 * included): `vErrors = vErrors === null ? ref.errors : vErrors.concat(ref.errors)`, a fresh copy of every error
 * so far at each failing reference. With `allErrors`, a value with N failing references (a map of N broken
 * `inputResponses`, an array of N broken items under a `$ref`) then costs O(N²): seconds for a body of a few
 * hundred kilobytes, hours for one of a few megabytes, on the event loop. This code option appends in place
 * instead, which keeps the same errors in the same order at O(N).
 *
 * Rule it owns: every ajv instance that validates what a caller sent with `allErrors` is built with
 * `code: LINEAR_ERROR_MERGE`. Proven by: test/e2e/pipeline.e2e-spec.ts ("… in time linear in their number"),
 * test/e2e/tool-results.e2e-spec.ts ("… under a recursive $ref …")
 */
const CONCAT = /\bvErrors\.concat\(/g;
const APPEND = '((into, from) => { for (let i = 0; i < from.length; i++) into.push(from[i]); return into; })(vErrors, ';

/** The ajv `code` option that merges referenced schemas' errors in place (see the file comment). */
export const LINEAR_ERROR_MERGE = { process: (code: string): string => code.replace(CONCAT, APPEND) } as const;

/**
 * The ajv options of the validators of consumer-written schemas that check what a caller sent (tool schemas,
 * elicitation `requestedSchema`s): every error collected, merged in linear time; formats asserted; the value
 * never coerced nor filled with defaults.
 */
export const CALLER_VALUE_CHECK = {
  strict: false,
  allErrors: true,
  validateFormats: true,
  coerceTypes: false,
  useDefaults: false,
  code: LINEAR_ERROR_MERGE,
} as const;

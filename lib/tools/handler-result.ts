import type { McpContext } from '../context/mcp-context.js';
import { nestingDepth } from '../protocol/nesting.js';
import { bounded } from '../util/bounded.js';
import { isError } from '../util/is-error.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { ownJsonCopy } from '../util/own-key.js';
import { isStackOverflow } from '../util/stack-overflow.js';
import { emptiedReturn } from '../validation/emptied-return.js';
import { describeSchemaErrors } from '../validation/schema-problems.js';
import { dataPath, segmentsIn, shapeProblems } from './data-path.js';
import { readHints, type McpHint } from './hint.js';
import { isOutcome, type McpOutcome } from './outcome.js';
import type { ToolHooks } from './tool-hooks.js';
import { isToolResultShape, textResult } from './tool-result.js';
import type { ToolCallResult } from './tool.interfaces.js';
import type { ToolRun } from './wired-tool.js';

/**
 * Thrown when what a tool returned cannot be sent as it is: MCP content that is not a valid `CallToolResult`, or
 * data JSON would send as `{}` (see `emptiedReturn`). The server's fault, contained.
 * @publicApi
 */
export class MalformedToolResultError extends Error {
  override readonly name = 'MalformedToolResultError';
}

/**
 * Thrown when a tool's result does not match its own output schema: the server's fault, never the caller's.
 * @publicApi
 */
export class StructuredContentMismatchError extends Error {
  override readonly name = 'StructuredContentMismatchError';
}

/** The default error formatter: `Operation failed: <reason>` (a string as is, an Error's message, else bounded). */
function defaultFormatError(reason: unknown): string {
  const text = typeof reason === 'string' ? reason : isError(reason) ? reason.message : bounded(reason, 500);
  return `Operation failed: ${text}`;
}

/** A value as JSON carries it (a Date as its ISO string, an undefined member dropped); throws where JSON cannot. */
function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/** How many of an output schema mismatch's problems its message names. */
const MISMATCH_PROBLEMS_LISTED = 5;

/** `validate(value)`, or undefined where the stack ran out first (its errors, when false, read from it). */
function validatedWithinStack(validate: (value: unknown) => boolean, value: unknown): boolean | undefined {
  try {
    return validate(value);
  } catch (thrown) {
    if (!isStackOverflow(thrown)) throw thrown;
    return undefined;
  }
}

function checkStructured(hooks: ToolHooks, value: unknown): void {
  const { validate, first, unionLookupOf, unionFacts } = hooks.output!;
  if (value === undefined) throw new StructuredContentMismatchError(`tool "${hooks.tool}" declares an output schema but returned no structured content`);
  const passed = validatedWithinStack(first ?? validate, value);
  // A result nested deeper than a recursive output schema's check reaches is still the tool's fault, named so.
  if (passed === undefined)
    throw new StructuredContentMismatchError(
      `tool "${hooks.tool}" returned structured content nested ${nestingDepth(value)} levels deep, too deep to be checked against its output schema`,
    );
  if (passed) return;
  // The every-problem validator describes what the first-problem one refused; where its stack runs out, the first stands.
  const described =
    !first || validatedWithinStack(validate, value) !== undefined
      ? describeSchemaErrors(validate.errors, unionLookupOf?.(value), unionFacts)
      : describeSchemaErrors(first.errors, undefined, undefined, true);
  const problems = described.slice(0, MISMATCH_PROBLEMS_LISTED).map((p) => `${dataPath(segmentsIn(value, p.path)) || '(root)'}: ${p.problem}`);
  // The count goes first: a fault's message is bounded, and a long list would cut it off.
  const count = described.length > MISMATCH_PROBLEMS_LISTED ? ` (${described.length} problems, the first ${MISMATCH_PROBLEMS_LISTED} here)` : '';
  throw new StructuredContentMismatchError(`tool "${hooks.tool}" returned structured content its output schema refuses${count}: ${problems.join('; ')}`);
}

async function hintsFor(hooks: ToolHooks, action: string | undefined, outcome: McpOutcome, ctx: McpContext) {
  if (!outcome.hasHintContext || !hooks.hints || action === undefined) return [];
  return readHints(hooks.tool, await hooks.hints(action, outcome.hintContext, ctx));
}

async function contextFor(hooks: ToolHooks, action: string | undefined, ctx: McpContext) {
  if (!hooks.actionContext || action === undefined) return undefined;
  return readActionContext(hooks.tool, await hooks.actionContext(action, ctx));
}

/**
 * Reads an `actionContext` return: an object, or none for `null`/`undefined`; anything else, an emptied return
 * (a Map, say) included, is the tool's fault.
 */
export function readActionContext(tool: string, returned: unknown): Record<string, unknown> | undefined {
  if (returned === null || returned === undefined) return undefined;
  const written = asJsonWrites(returned, 'context'); // a Date's is a string
  if (!isPlainObject(written)) {
    const what = written === returned ? bounded(returned, 60) : `a value JSON writes as ${bounded(written, 60)}`;
    throw new TypeError(`actionContext() of tool "${tool}" must return an object, null or undefined, not ${what}`);
  }
  const emptied = emptiedReturn(written);
  if (emptied) throw new TypeError(`actionContext() of tool "${tool}" returned ${emptied}`);
  return written;
}

/**
 * Adds hints and action context beside an object's keys, or around another value as `{result, ...}`, reading the
 * data as JSON writes it: a `toJSON` (a Date's, say) would be lost to a spread.
 */
function withExtras(data: unknown, extras: Record<string, unknown>): unknown {
  if (Object.keys(extras).length === 0) return data;
  const written = asJsonWrites(data, '');
  return Object.assign(isPlainObject(written) ? ownJsonCopy(written) : { result: written }, extras);
}

/** A value as `JSON.stringify` writes it under `key`: what its `toJSON` returns, if it has one, else the value itself. */
function asJsonWrites(value: unknown, key: string): unknown {
  return isPlainObject(value) && typeof value.toJSON === 'function' ? (value as { toJSON(key: string): unknown }).toJSON(key) : value;
}

/** The hints and action context a result carries beside its data or error, each only when there is one. */
function extrasOf(hints: readonly McpHint[], context: Record<string, unknown> | undefined): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  if (hints.length) extras.hints = hints;
  if (context) extras.context = context;
  return extras;
}

/**
 * Turns a handler's return into a tool result. Every return is MCP content (sent as written once JSON and
 * `CallToolResult` accept it), a `fail(...)` or `refuse(...)` (which `run` records as the caller's error), or data
 * (`ok(...)` or bare; data JSON would empty, a Map say, is a fault); see docs/tools.md ("Results"). `hints` and
 * `actionContext` run only with an `action` (never for a plain tool); a hook's bad return is a fault.
 */
export async function handlerResult(hooks: ToolHooks, returned: unknown, action: string | undefined, ctx: McpContext, run: ToolRun): Promise<ToolCallResult> {
  if (isToolResultShape(returned)) {
    // Checked as JSON carries it (what is sent); it is serialized outside containment, so a BigInt or cycle is caught here.
    let result: ToolCallResult;
    try {
      const sent = ownJsonCopy(returned);
      sent.resultType = 'complete';
      result = asJson(sent) as ToolCallResult;
    } catch (thrown) {
      throw new MalformedToolResultError(`tool "${hooks.tool}" returned MCP content JSON cannot carry: ${bounded(thrown, 200)}`);
    }
    if (!hooks.resultShape.conforms(result)) {
      throw new MalformedToolResultError(
        `tool "${hooks.tool}" returned MCP content that is not a valid CallToolResult: ${shapeProblems(hooks.resultShape.problems(result), result)}`,
      );
    }
    if (hooks.output && result.isError !== true) checkStructured(hooks, result.structuredContent);
    return result;
  }
  const outcome: McpOutcome = isOutcome(returned) ? returned : { kind: 'ok', value: returned, hasHintContext: false };
  if (outcome.kind !== 'ok') {
    if (outcome.kind === 'refuse') run.errorKind = 'dispatch';
    const formatted = hooks.formatError ? await hooks.formatError(outcome.value) : defaultFormatError(outcome.value);
    if (typeof formatted !== 'string') throw new TypeError(`formatError() of tool "${hooks.tool}" must return a string, not ${bounded(formatted, 60)}`);
    if (!outcome.hasHintContext) return textResult(formatted, true);
    const hints = await hintsFor(hooks, action, outcome, ctx);
    const context = await contextFor(hooks, action, ctx);
    return textResult(JSON.stringify(Object.assign({ error: formatted }, extrasOf(hints, context))), true);
  }
  const data = outcome.value;
  const emptied = emptiedReturn(data);
  if (emptied) throw new MalformedToolResultError(`tool "${hooks.tool}" returned ${emptied}`);
  const structured = hooks.output ? asJson(data) : undefined;
  if (hooks.output) checkStructured(hooks, structured);
  // A plain tool (no action) has neither hook: its data goes out as returned, with no await in between.
  const response = action === undefined ? data : withExtras(data, extrasOf(await hintsFor(hooks, action, outcome, ctx), await contextFor(hooks, action, ctx)));
  const result: ToolCallResult =
    response === undefined ? { resultType: 'complete', content: [] } : textResult(typeof response === 'string' ? response : JSON.stringify(response), false);
  if (hooks.output) result.structuredContent = structured;
  return result;
}

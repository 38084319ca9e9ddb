import type { McpContext } from '../context/mcp-context.js';
import { bounded } from '../util/bounded.js';
import { describeSchemaErrors } from '../validation/schema-problems.js';
import { dataPath } from './data-path.js';
import { readHints } from './hint.js';
import { isOutcome, type McpOutcome } from './outcome.js';
import type { ToolHooks } from './tool-hooks.js';
import type { ToolCallResult } from './tool.interfaces.js';
import { isToolResultShape, textResult } from './tool-result.js';
import { isPlainObject } from '../util/is-plain-object.js';

/**
 * Thrown when MCP content a tool returned itself is not a valid `CallToolResult` (a content block of no known
 * type, a text block without text, …). The server's fault: contained as a `tool_fault`.
 * @publicApi
 */
export class MalformedToolResultError extends Error {
  override readonly name = 'MalformedToolResultError';
}

/**
 * Thrown when a tool's result does not match its own output schema. The server's fault, never the caller's: fault
 * containment answers it as a `tool_fault` and emits `mcp:tool:error`.
 * @publicApi
 */
export class StructuredContentMismatchError extends Error {
  override readonly name = 'StructuredContentMismatchError';
}


/** The default error formatter: `Operation failed: <reason>` (a string as is, an Error's message, else bounded). */
export function defaultFormatError(reason: unknown): string {
  const text = typeof reason === 'string' ? reason : reason instanceof Error ? reason.message : bounded(reason, 500);
  return `Operation failed: ${text}`;
}

/** A value as JSON carries it (a Date as its ISO string, an undefined member dropped); throws where JSON cannot. */
function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

function checkStructured(hooks: ToolHooks, value: unknown): void {
  const validate = hooks.output!;
  if (value === undefined) throw new StructuredContentMismatchError(`tool "${hooks.tool}" declares an output schema but returned no structured content`);
  if (validate(value)) return;
  const problems = describeSchemaErrors(validate.errors).slice(0, 5).map((p) => `${dataPath(p.path) || '(root)'}: ${p.problem}`);
  throw new StructuredContentMismatchError(`tool "${hooks.tool}" returned structured content its output schema refuses: ${problems.join('; ')}`);
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
 * Reads what an `actionContext` hook returned. Invariant: the `"context"` key, when present, holds an object; a
 * `null` or `undefined` return adds none, and any other return is the tool's fault (a `TypeError`, contained).
 */
export function readActionContext(tool: string, returned: unknown): Record<string, unknown> | undefined {
  if (returned === null || returned === undefined) return undefined;
  if (!isPlainObject(returned)) throw new TypeError(`actionContext() of tool "${tool}" must return an object, null or undefined, not ${bounded(returned, 60)}`);
  return returned;
}

/**
 * Adds hints and the action context to a response: beside the keys of an object, or around any other value,
 * reading the data as JSON writes it (a `toJSON`, a Date's say, decides what that is; spread, it would be lost,
 * or would swallow the extras).
 */
function withExtras(data: unknown, extras: Record<string, unknown>): unknown {
  if (Object.keys(extras).length === 0) return data;
  const written = isPlainObject(data) && typeof data.toJSON === 'function' ? (data as { toJSON(key: string): unknown }).toJSON('') : data;
  return isPlainObject(written) ? { ...written, ...extras } : { result: written, ...extras };
}

/**
 * What a handler's return value becomes: the success side of the tool dialect. Rule it owns: every return is
 * one of three things, and nothing else is looked at.
 *
 * - **MCP content** (an object with a `content` array): the tool wants full control; it goes out as written,
 *   once JSON can carry it and the protocol's `CallToolResult` schema accepts it ({@link MalformedToolResultError}
 *   otherwise). With an output schema, a non-error result must carry a matching `structuredContent`.
 * - **`fail(reason[, hintContext])`**: `isError`; the text is the tool's `formatError(reason)`. With a hint
 *   context it is JSON, `{error, hints?, context?}`.
 * - **anything else**, or **`ok(data[, hintContext])`**: a success. The text is the data (a string as is,
 *   anything else as JSON), with `hints` (when a hint context was given and the hook returned some) and
 *   `context` (the `actionContext` hook's answer) added beside an object's keys, or around another value as
 *   `{result, hints?, context?}`. With an output schema, `structuredContent` is the data itself as JSON carries
 *   it (a Date as its ISO string), checked against it; a mismatch is a {@link StructuredContentMismatchError},
 *   the server's fault.
 *
 * Hooks run only for action tools (a plain tool's `action` is undefined); a hook's bad return is a fault too.
 */
export async function handlerResult(hooks: ToolHooks, returned: unknown, action: string | undefined, ctx: McpContext): Promise<ToolCallResult> {
  if (isToolResultShape(returned)) {
    // The checks read the result as JSON carries it, which is what is sent; and since it is serialized outside
    // fault containment, a value JSON cannot carry (a BigInt, a cycle) is caught here.
    let result: ToolCallResult;
    try {
      result = asJson({ ...returned, resultType: 'complete' }) as ToolCallResult;
    } catch (thrown) {
      throw new MalformedToolResultError(`tool "${hooks.tool}" returned MCP content JSON cannot carry: ${bounded(thrown, 200)}`);
    }
    if (!hooks.resultShape(result)) {
      const problems = describeSchemaErrors(hooks.resultShape.errors).slice(0, 3).map((p) => `${dataPath(p.path) || '(root)'}: ${p.problem}`);
      throw new MalformedToolResultError(`tool "${hooks.tool}" returned MCP content that is not a valid CallToolResult: ${problems.join('; ')}`);
    }
    if (hooks.output && result.isError !== true) checkStructured(hooks, result.structuredContent);
    return result;
  }
  const outcome: McpOutcome = isOutcome(returned) ? returned : { kind: 'ok', value: returned, hasHintContext: false };
  if (outcome.kind === 'fail') {
    const formatted = hooks.formatError ? await hooks.formatError(outcome.value) : defaultFormatError(outcome.value);
    if (typeof formatted !== 'string') throw new TypeError(`formatError() of tool "${hooks.tool}" must return a string, not ${bounded(formatted, 60)}`);
    if (!outcome.hasHintContext) return textResult(formatted, true);
    const hints = await hintsFor(hooks, action, outcome, ctx);
    const context = await contextFor(hooks, action, ctx);
    return textResult(JSON.stringify({ error: formatted, ...(hints.length && { hints }), ...(context && { context }) }), true);
  }
  const data = outcome.value;
  const structured = hooks.output ? asJson(data) : undefined;
  if (hooks.output) checkStructured(hooks, structured);
  const hints = await hintsFor(hooks, action, outcome, ctx);
  const context = await contextFor(hooks, action, ctx);
  const response = withExtras(data, { ...(hints.length && { hints }), ...(context && { context }) });
  const result: ToolCallResult =
    response === undefined ? { resultType: 'complete', content: [] } : textResult(typeof response === 'string' ? response : JSON.stringify(response), false);
  if (hooks.output) result.structuredContent = structured;
  return result;
}

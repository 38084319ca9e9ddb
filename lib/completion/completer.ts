import type { McpContext, McpHandlerContext } from '../context/mcp-context.js';
import { answeringHttpExceptions } from '../errors/http-exception.js';
import { bounded } from '../util/bounded.js';

/**
 * What a completer is told beside the value typed: the other arguments of the prompt, or the other variables of the
 * template, that the client already knows. @publicApi
 */
export interface McpCompletionContext {
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * Completes one prompt argument or one resource-template variable for `completion/complete`: every suggestion for
 * what the user typed so far (`value`), best first. The first 100 are sent, with `total` and `hasMore` telling how
 * many there are. @publicApi
 */
export type McpCompleter = (value: string, context: McpCompletionContext, ctx: McpHandlerContext) => readonly string[] | Promise<readonly string[]>;

/** A completer as a prompt argument or a template variable declares it, once bound to its provider. */
export type BoundCompleter = (value: string, context: McpCompletionContext, ctx: McpContext) => unknown;

/** A declared completer (a function, or the name of a method of `instance`) bound to `instance`; undefined when it names none. */
export function bindCompleter(given: unknown, instance: object): BoundCompleter | undefined {
  const completer = typeof given === 'string' ? (instance as Record<string, unknown>)[given] : given;
  return typeof completer === 'function' ? (completer.bind(instance) as BoundCompleter) : undefined;
}

/**
 * Runs a completer; an `HttpException` it throws is its refusal (`httpExceptionMethodError`), a return that is no
 * array of strings a fault of `what` (the completer's owner).
 */
export async function runCompleter(completer: BoundCompleter, value: string, context: McpCompletionContext, ctx: McpContext, what: string): Promise<readonly string[]> {
  const values: unknown = await answeringHttpExceptions(() => completer(value, context, ctx));
  if (!Array.isArray(values) || !allStrings(values)) throw new TypeError(`${what} must return an array of strings, not ${bounded(values, 60)}`);
  return values;
}

/** Whether every element is a string; an indexed loop, so a hole of a sparse array (which `every` skips) is not. */
function allStrings(values: readonly unknown[]): boolean {
  for (let i = 0; i < values.length; i++) if (typeof values[i] !== 'string') return false;
  return true;
}

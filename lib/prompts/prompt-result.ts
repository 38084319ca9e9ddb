import type { McpResult } from '../protocol/json-rpc.js';
import type { ProtocolShape } from '../protocol/protocol-schema.js';
import { shapeProblems } from '../tools/data-path.js';
import { bounded } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { emptiedReturn } from '../validation/emptied-return.js';

/**
 * Thrown when what a prompt's `get()` returned is not a prompt (see `McpPromptReturn`) or not a valid
 * `GetPromptResult`: the server's fault, contained (500 + -32603).
 * @publicApi
 */
export class MalformedPromptResultError extends Error {
  override readonly name = 'MalformedPromptResultError';
}

/** The keys a `{description?, messages}` return may hold. */
const RESULT_KEYS: readonly string[] = ['description', 'messages', '_meta'];

/** The return of `get()` as a `{messages, ...}` object, before it is checked. */
function asResult(prompt: string, returned: unknown): Record<string, unknown> {
  if (typeof returned === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: returned } }] };
  if (Array.isArray(returned)) return { messages: returned };
  if (isPlainObject(returned) && 'messages' in returned) {
    const extra = Object.keys(returned).filter((key) => !RESULT_KEYS.includes(key));
    if (extra.length)
      throw new MalformedPromptResultError(
        `prompt "${prompt}" returned a result with unknown key(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}; allowed: ${RESULT_KEYS.join(', ')}`,
      );
    return { ...returned };
  }
  if (isPlainObject(returned) && 'role' in returned && 'content' in returned) return { messages: [returned] };
  const emptied = emptiedReturn(returned);
  if (emptied) throw new MalformedPromptResultError(`prompt "${prompt}" returned ${emptied}`);
  throw new MalformedPromptResultError(
    `prompt "${prompt}" returned ${bounded(returned, 60)}; get() returns a string, a message {role, content}, a list of messages or {description?, messages}`,
  );
}

/**
 * Turns what a prompt's `get()` returned into a complete `GetPromptResult`: a string is one user text message, a
 * message or a list of messages becomes `messages`, `{description?, messages}` is taken as it is. The result is
 * checked as JSON carries it against the protocol's `GetPromptResult` (`shape`); anything else is a
 * {@link MalformedPromptResultError}.
 */
export function promptResult(prompt: string, returned: unknown, shape: ProtocolShape): McpResult {
  let result: McpResult;
  try {
    // What is sent is the JSON text: a BigInt or a cycle is caught here, inside the handler, not when the answer is written.
    result = JSON.parse(JSON.stringify({ resultType: 'complete', ...asResult(prompt, returned) })) as McpResult;
  } catch (thrown) {
    if (thrown instanceof MalformedPromptResultError) throw thrown;
    throw new MalformedPromptResultError(`prompt "${prompt}" returned messages JSON cannot carry: ${bounded(thrown, 200)}`);
  }
  if (!shape.conforms(result))
    throw new MalformedPromptResultError(`prompt "${prompt}" returned a result that is not a valid GetPromptResult: ${shapeProblems(shape.problems(result), result)}`);
  return result;
}

import { bounded } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';

/**
 * A hint: one follow-up call the LLM can make next, returned by a tool's `hints` hook and sent under `"hints"`.
 * @publicApi
 */
export interface McpHint {
  /** The tool to call, for example `"tasks"`. */
  readonly tool: string;
  /** The action of that tool, for example `"get"`. */
  readonly action: string;
  /** Why this call is relevant now. */
  readonly description: string;
  /** An example `data` payload for the call. */
  readonly example?: object;
}

/** Reads a `hints` hook's return, keeping only the four hint keys; any other shape is the tool's fault. */
export function readHints(tool: string, returned: unknown): McpHint[] {
  if (!Array.isArray(returned)) throw new TypeError(`hints() of tool "${tool}" must return an array of hints, not ${bounded(returned, 60)}`);
  return returned.map((hint, i) => {
    if (
      !isPlainObject(hint) ||
      typeof hint.tool !== 'string' ||
      typeof hint.action !== 'string' ||
      typeof hint.description !== 'string' ||
      (hint.example !== undefined && !isPlainObject(hint.example))
    )
      throw new TypeError(`hints() of tool "${tool}" returned a malformed hint at [${i}]: a hint has string tool, action and description, and an optional object example`);
    return hint.example === undefined
      ? { tool: hint.tool, action: hint.action, description: hint.description }
      : { tool: hint.tool, action: hint.action, description: hint.description, example: hint.example };
  });
}

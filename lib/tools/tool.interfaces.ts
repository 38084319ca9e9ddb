import type { McpContext } from '../context/mcp-context.js';
import type { McpHint } from './hint.js';

/** MCP tool annotations: hints for clients, never a security boundary. @publicApi */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A JSON Schema (2020-12) as a consumer writes it: an object, or `true`/`false`. @publicApi */
export type JsonSchema = { [keyword: string]: unknown } | boolean;

/**
 * What `@McpTool` declares about a tool. The set of keys is closed: any other key is refused at module init.
 *
 * - An **action tool** declares no `inputSchema`; its actions are its `@McpAction` methods, and the framework
 *   generates its `{action, data}` input schema.
 * - A **plain tool** gives its own `inputSchema` and implements `run(args, ctx)`.
 * @publicApi
 */
export interface McpToolOptions {
  /** The tool's name: 1–128 characters of `[A-Za-z0-9_.-]`, unique in the server; `help` is reserved. */
  name: string;
  /** What the tool does, for the calling LLM. Consumer-authored text, sent as written (newlines allowed). */
  description: string;
  /** Display name; no `title` key in the definition when absent. */
  title?: string;
  /** A plain tool's input schema: a JSON Schema object with `"type": "object"` at the root. */
  inputSchema?: Record<string, unknown>;
  /** A JSON Schema the tool's structured result conforms to; results then carry `structuredContent`. */
  outputSchema?: Record<string, unknown>;
  /** Tool annotations; no `annotations` key in the definition when absent. */
  annotations?: McpToolAnnotations;
}

/** The keys {@link McpToolOptions} may hold (its closed key set). */
export const TOOL_OPTION_KEYS = ['name', 'description', 'title', 'inputSchema', 'outputSchema', 'annotations'] as const;

/**
 * An action schema: what one action of an action tool declares, in the TS spelling. The key set is closed (the
 * action-schema invariant, `action-schema.ts`): a key outside it is refused at module init, and every key in it
 * is checked there.
 *
 * On the wire (help, the input_schema digest) `requiredOneOf` is spelled `required_one_of`; every other key
 * keeps its name.
 * @publicApi
 */
export interface McpActionSchema {
  /** One line saying what the action does; emitted verbatim in the action summaries. No newline. */
  description: string;
  /** JSON Schema properties of the action's `data`, keyed by property name (string keys only). */
  properties: Record<string, JsonSchema>;
  /** Property names that must be present in `data` (AND). A property sent as `null` counts as present. */
  required?: readonly string[];
  /** Groups of property names; at least one group must be present in full (OR of ANDs). */
  requiredOneOf?: readonly (readonly string[])[];
  /** Values for properties the caller omitted, applied after the dispatch gates; never for a required property. */
  defaults?: Record<string, unknown>;
  /** Long-form notes, surfaced by help. */
  notes?: string;
  /** Names of related actions, surfaced by help. */
  related?: readonly string[];
  /** Example `data` payloads, surfaced by help. */
  examples?: readonly Record<string, unknown>[];
}

/**
 * What `@McpAction` takes: the action schema plus, optionally, the action's name (default: the method's name).
 * @publicApi
 */
export interface McpActionOptions extends McpActionSchema {
  /** The action's name on the wire; defaults to the decorated method's name. No newline. */
  name?: string;
}

/**
 * The optional per-tool hooks: methods a tool class may implement, each probed before it is called, so an absent
 * one means "nothing to add". An action tool implements the ones it needs (`implements Partial<McpToolHooks>`).
 * A hook's fault (a throw, or a return of the wrong shape) is contained like a handler's.
 * @publicApi
 */
export interface McpToolHooks {
  /**
   * Follow-up suggestions for a result built with a hint context: `ok(data, hintContext)` or
   * `fail(reason, hintContext)`. Called with the action's name. An empty list adds no `hints` key.
   */
  hints(action: string, hintContext: unknown, ctx: McpContext): readonly McpHint[] | Promise<readonly McpHint[]>;
  /**
   * Runtime context for an action, or `null`/`undefined` for none. Added under `"context"` to the action's
   * successful results, to `fail(reason, hintContext)` answers and to help's action level. Read per-request
   * data from `ctx`, never from module state another request wrote.
   */
  actionContext(
    action: string,
    ctx: McpContext,
  ): Record<string, unknown> | null | undefined | Promise<Record<string, unknown> | null | undefined>;
  /** Turns a `fail(reason)` reason into the text the caller reads. Default: `Operation failed: <reason>`. */
  formatError(reason: unknown): string | Promise<string>;
}

/** The hook names of {@link McpToolHooks}; an `@McpAction` method may not take one of them. */
export const TOOL_HOOK_NAMES = ['hints', 'actionContext', 'formatError'] as const satisfies readonly (keyof McpToolHooks)[];

/** A JSON-RPC result of tools/call (`CallToolResult` or, later, an input-required result). */
export type ToolCallResult = Record<string, unknown> & { resultType: string };

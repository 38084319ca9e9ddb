import type { McpHandlerContext } from '../context/mcp-context.js';
import type { McpContentBlock } from '../response/content-block.js';
import type { McpHint } from './hint.js';
import type { McpTaskStart, McpTaskSupport, TaskDeclaration } from './task-mode.js';

/** MCP tool annotations: hints for clients, never a security boundary; a closed key set, checked at module init (`tool-annotations.ts`). @publicApi */
export interface McpToolAnnotations {
  /** A display name for the tool. */
  title?: string;
  /** The tool does not change its environment (a client reads an absent hint as `false`). */
  readOnlyHint?: boolean;
  /** A tool that changes its environment may destroy what is there, not only add to it (absent: `true`). */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments changes nothing more, for a tool that changes its environment (absent: `false`). */
  idempotentHint?: boolean;
  /** It reaches an open world of outside entities (the web, say) rather than a closed domain (absent: `true`). */
  openWorldHint?: boolean;
}

/**
 * A JSON Schema (2020-12) as a consumer writes it: an object, or `true`/`false`. Typed `object` so a schema typed
 * by another library's interface (`JSONSchema7`, say) is accepted; module init checks what it holds. @publicApi
 */
export type JsonSchema = object | boolean;

/**
 * What `@McpTool` declares; any other key is refused at module init. An action tool omits `inputSchema`; a plain
 * tool gives one and implements `run(args, ctx)`.
 * @publicApi
 */
export interface McpToolOptions extends TaskDeclaration {
  /** The tool's name: 1–128 characters of `[A-Za-z0-9_.-]`, unique in the server; `help` is reserved. */
  name: string;
  /** What the tool does, for the calling LLM, sent as written (newlines allowed). */
  description: string;
  /** Display name; no `title` key in the definition when absent. */
  title?: string;
  /** A plain tool's input schema: a JSON Schema object with `"type": "object"` at the root. */
  inputSchema?: object;
  /** A JSON Schema the tool's structured result conforms to; results then carry `structuredContent`. */
  outputSchema?: object;
  /** Tool annotations; no `annotations` key in the definition when absent. */
  annotations?: McpToolAnnotations;
  /**
   * Whether a call may run as a task (the tasks extension): `optional` runs as one when the request declares the
   * extension, and synchronously otherwise; `required` answers -32021 without it. An action tool's value is its
   * actions' default. See docs/tasks.md. @default undefined (never a task)
   */
  taskSupport?: McpTaskSupport;
  /** When a task-supporting call becomes a task: as the call starts, or when its handler calls `ctx.startTask()`. @default 'call' */
  taskStart?: McpTaskStart;
}

/** The keys {@link McpToolOptions} may hold (its closed key set). */
export const TOOL_OPTION_KEYS = ['name', 'description', 'title', 'inputSchema', 'outputSchema', 'annotations', 'taskSupport', 'taskStart'] as const;

/**
 * What one action declares, a closed key set checked at module init (`action-schema.ts`). On the wire
 * `requiredOneOf` is spelled `required_one_of`.
 * @publicApi
 */
export interface McpActionSchema {
  /** One line saying what the action does; emitted verbatim in the action summaries. No newline. */
  description: string;
  /** JSON Schema properties of the action's `data`, keyed by property name (string keys only). */
  properties: Record<string, JsonSchema>;
  /** Property names that must be present in `data` (AND); one sent as `null` counts as present. */
  required?: readonly string[];
  /** Groups of property names; at least one group must be present in full (OR of ANDs). */
  requiredOneOf?: readonly (readonly string[])[];
  /** Values for properties the caller omitted, applied after the dispatch gates; never for a required property. */
  defaults?: object;
  /** Long-form notes, surfaced by help. */
  notes?: string;
  /** Names of related actions, surfaced by help. */
  related?: readonly string[];
  /** Example `data` payloads, surfaced by help. */
  examples?: readonly object[];
}

/** What `@McpAction` takes: the action schema, an optional `name` (default: the method's name), and its task mode. @publicApi */
export interface McpActionOptions extends McpActionSchema {
  /** The action's name on the wire; defaults to the decorated method's name. No newline. */
  name?: string;
  /** As `@McpTool`'s `taskSupport`, for this action; default: the tool's. */
  taskSupport?: McpTaskSupport;
  /** As `@McpTool`'s `taskStart`, for this action; default: the tool's. */
  taskStart?: McpTaskStart;
}

/**
 * Optional methods a tool class may implement (`implements Partial<McpToolHooks>`), each probed before it is
 * called; a hook's fault is contained like a handler's. See docs/tools.md ("Optional hooks").
 * @publicApi
 */
export interface McpToolHooks {
  /** Follow-up suggestions for a result built by `ok(data, hintContext)` or `fail(reason, hintContext)`. */
  hints(action: string, hintContext: unknown, ctx: McpHandlerContext): readonly McpHint[] | Promise<readonly McpHint[]>;
  /**
   * Runtime context for an action (sent under `"context"`), or `null`/`undefined` for none; read per-request data
   * from `ctx`, never from module state another request wrote.
   */
  actionContext(action: string, ctx: McpHandlerContext): object | null | undefined | Promise<object | null | undefined>;
  /** Turns a `fail(reason)` reason into the text the caller reads. Default: `Operation failed: <reason>`. */
  formatError(reason: unknown): string | Promise<string>;
}

/** The hook names of {@link McpToolHooks}; an `@McpAction` method may not take one of them. */
export const TOOL_HOOK_NAMES = ['hints', 'actionContext', 'formatError'] as const satisfies readonly (keyof McpToolHooks)[];

/**
 * MCP content a tool handler returns to be sent as written (a `CallToolResult` without `resultType`): sent once the
 * protocol's schema accepts it, a `tool_fault` otherwise. See docs/tools.md ("Results"). @publicApi
 */
export interface McpToolResult {
  content: readonly McpContentBlock[];
  isError?: boolean;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

/** A JSON-RPC result of tools/call, told apart by `resultType`. */
export type ToolCallResult = Record<string, unknown> & { resultType: string };

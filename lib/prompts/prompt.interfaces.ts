import type { McpCompleter } from '../completion/completer.js';
import type { McpHandlerContext } from '../context/mcp-context.js';
import type { McpIcon } from '../options/mcp-module-options.interface.js';
import type { McpContentBlock } from '../response/content-block.js';

/** One argument a prompt takes (MCP `PromptArgument`), plus its optional completer. @publicApi */
export interface McpPromptArgument {
  /** The argument's name, unique within the prompt: the key in `prompts/get` `arguments`. */
  name: string;
  /** Display name. */
  title?: string;
  description?: string;
  /** Whether `prompts/get` must carry it (a request without it is -32602). */
  required?: boolean;
  /**
   * Suggests values for `completion/complete`: a function, or the name of a method of the prompt's class (called on
   * the provider, so it can use what is injected). Without one the argument completes to no values.
   */
  complete?: McpCompleter | string;
}

/** The keys {@link McpPromptArgument} may hold (its closed key set). */
export const PROMPT_ARGUMENT_KEYS = ['name', 'title', 'description', 'required', 'complete'] as const;

/**
 * What `@McpPrompt` declares; any other key is refused at module init. The class implements `get(args, ctx)`
 * ({@link McpPromptHandler}).
 * @publicApi
 */
export interface McpPromptOptions {
  /** The prompt's name: 1–128 characters of `[A-Za-z0-9_.-]`, unique in the server. */
  name: string;
  /** Display name. */
  title?: string;
  /** What the prompt is for; required (clients list prompts by it). */
  description: string;
  /** The arguments `prompts/get` takes, in the order a client shows them. */
  arguments?: readonly McpPromptArgument[];
  /** Icons a client may show for the prompt. */
  icons?: readonly McpIcon[];
}

/** The keys {@link McpPromptOptions} may hold (its closed key set). */
export const PROMPT_OPTION_KEYS = ['name', 'title', 'description', 'arguments', 'icons'] as const;

/** One message of a prompt (MCP `PromptMessage`). @publicApi */
export interface McpPromptMessage {
  role: 'user' | 'assistant';
  content: McpContentBlock;
}

/**
 * What `get()` may return: a string (one user text message), one message, a list of messages, or
 * `{description?, messages}`. Anything the protocol's `GetPromptResult` refuses is a fault. @publicApi
 */
export type McpPromptReturn =
  string | McpPromptMessage | readonly McpPromptMessage[] | { description?: string; messages: readonly McpPromptMessage[]; _meta?: Record<string, unknown> };

/**
 * A prompt's handler: gets the request's arguments (checked: each a string, every required one present, none
 * undeclared) and the context, whose `elicit`/`sample`/`listRoots` work as in a tool (re-execution applies).
 * @publicApi
 */
export interface McpPromptHandler<A extends { [K in keyof A]?: string } = Record<string, string>> {
  /** `args` holds strings only: name an interface of them as `McpPromptHandler<ReviewArgs>`. */
  get(args: A, ctx: McpHandlerContext): McpPromptReturn | Promise<McpPromptReturn>;
}

import type { McpContext } from '../context/mcp-context.js';

/** What `completion/complete` asks to complete: an argument of a prompt, or a variable of a resource template. */
export type CompletionRef = { readonly type: 'ref/prompt'; readonly name: string } | { readonly type: 'ref/resource'; readonly uri: string };

/** One completion request, as a completion source reads it. */
export interface CompletionRequest {
  readonly ref: CompletionRef;
  /** The argument (or template variable) being completed, and what the user typed so far. */
  readonly argument: { readonly name: string; readonly value: string };
  /** The values of the other arguments already given. */
  readonly arguments: Readonly<Record<string, string>>;
  readonly ctx: McpContext;
}

/**
 * A completion source: a registry that can complete the arguments of what it holds (the prompt registry: prompt
 * arguments; the resource registry: template variables). `completion/complete` asks each in turn.
 */
export interface CompletionSource {
  /** Whether any of what it holds declares a completer (then `completions` is advertised). */
  readonly completes: boolean;
  /**
   * Completes one argument, or returns undefined when `ref` is not one of its own. Refuses an unknown argument of
   * its own by throwing an `McpMethodError` (-32602) at once; the promise rejects when the completer throws or
   * returns something other than strings.
   */
  complete(request: CompletionRequest): Promise<readonly string[]> | undefined;
  /**
   * What a refusal of an unknown ref of `type` lists of this source's own (` Prompts: a, b.`), so the reader can
   * correct it; empty when it holds none of that type.
   */
  refsListed(type: CompletionRef['type']): string;
  /** The ref of its own that an unknown `ref` nearly spells (a prompt name, a template's `uriTemplate`), for the same refusal. */
  refMeant(ref: CompletionRef): string | undefined;
}

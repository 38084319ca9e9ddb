import { applyDecorators, SetMetadata } from '@nestjs/common';

import { providerInjectable } from '../util/provider-injectable.js';
import type { McpPromptOptions } from './prompt.interfaces.js';

/** Metadata key under which `@McpPrompt` stores a provider's prompt options. */
export const MCP_PROMPT_METADATA = 'mcp:prompt';

/**
 * Marks a class as an MCP prompt: an injectable provider wired in at module init, answering `prompts/get` with
 * `get(args, ctx)`. See docs/prompts.md.
 *
 * @example
 * ```ts
 * @McpPrompt({ name: 'review', description: 'Review a file', arguments: [{ name: 'path', required: true }] })
 * export class ReviewPrompt {
 *   get(args: { path: string }) { return `Review ${args.path} for bugs.`; }
 * }
 * ```
 * @publicApi
 */
export function McpPrompt(options: McpPromptOptions): ClassDecorator {
  // Stored as null when missing, so module init still finds the class and refuses it.
  return applyDecorators(providerInjectable(), SetMetadata(MCP_PROMPT_METADATA, options ?? null));
}

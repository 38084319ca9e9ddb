import type { Provider } from '@nestjs/common';

import { PromptRegistry } from '../prompts/prompt.registry.js';
import { ResourceRegistry } from '../resources/resource.registry.js';
import type { CompletionSource } from './completion-source.interface.js';

/** Every completion source, in the order `completion/complete` asks them; a source not here completes nothing. */
const COMPLETION_SOURCES = [PromptRegistry, ResourceRegistry] as const;

/** Injection token of the completion sources, as instances. */
export const MCP_COMPLETION_SOURCES = Symbol.for('nest-mcp.completion-sources');

/** The completion sources' list provider (the sources themselves are provided where they live). */
export const COMPLETION_SOURCES_PROVIDER: Provider = {
  provide: MCP_COMPLETION_SOURCES,
  useFactory: (...sources: CompletionSource[]) => sources,
  inject: [...COMPLETION_SOURCES],
};

import { applyDecorators, SetMetadata } from '@nestjs/common';

import { providerInjectable } from '../util/provider-injectable.js';
import type { McpResourceOptions } from './resource.interfaces.js';

/** Metadata key under which `@McpResource` stores a provider's resource options. */
export const MCP_RESOURCE_METADATA = 'mcp:resource';

/**
 * Marks a class as an MCP resource at one fixed URI: an injectable provider wired in at module init, whose
 * `read(ctx)` returns the contents. See docs/resources.md.
 *
 * @example
 * ```ts
 * @McpResource({ uri: 'app://readme', name: 'readme', mimeType: 'text/markdown' })
 * export class ReadmeResource implements McpResourceHandler {
 *   read() { return '# Hello'; }
 * }
 * ```
 * @publicApi
 */
export function McpResource(options: McpResourceOptions): ClassDecorator {
  // Stored as null when missing, so module init still finds the class and refuses it.
  return applyDecorators(providerInjectable(), SetMetadata(MCP_RESOURCE_METADATA, options ?? null));
}

import { applyDecorators, SetMetadata } from '@nestjs/common';

import { providerInjectable } from '../util/provider-injectable.js';
import type { McpResourceTemplateOptions } from './resource.interfaces.js';

/** Metadata key under which `@McpResourceTemplate` stores a provider's template options. */
export const MCP_RESOURCE_TEMPLATE_METADATA = 'mcp:resource-template';

/**
 * Marks a class as an MCP resource template: an injectable provider wired in at module init, whose
 * `read(uri, variables, ctx)` returns the contents of any URI its RFC 6570 template matches. See docs/resources.md.
 *
 * @example
 * ```ts
 * @McpResourceTemplate({ uriTemplate: 'app://users/{id}', name: 'user', mimeType: 'application/json' })
 * export class UserResource implements McpResourceTemplateHandler {
 *   read(uri: string, { id }: McpUriVariables) { return JSON.stringify({ id }); }
 * }
 * ```
 * @publicApi
 */
export function McpResourceTemplate<const T extends string>(options: McpResourceTemplateOptions<T>): ClassDecorator {
  // Stored as null when missing, so module init still finds the class and refuses it.
  return applyDecorators(providerInjectable(), SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options ?? null));
}

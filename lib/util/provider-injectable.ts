import { Injectable, type ScopeOptions } from '@nestjs/common';
import { SCOPE_OPTIONS_METADATA } from '@nestjs/common/constants.js';

/** Every class an MCP decorator marked in this process, in the order they were marked (read at startup, never per request). */
export const MARKED_CLASSES: ReadonlySet<{ readonly name: string }> = new Set();

/**
 * `@Injectable()` for the decorators that make a class a provider (`@McpTool`, `@McpResource`, …): it keeps the
 * scope the class already has (an `@Injectable({ scope })` applied first, or inherited), which a bare
 * `Injectable()` would reset, so a request-scoped tool is refused whichever decorator is written on top. It notes
 * the class in {@link MARKED_CLASSES}.
 */
export const providerInjectable = (): ClassDecorator => (target) => {
  (MARKED_CLASSES as Set<{ readonly name: string }>).add(target);
  Injectable(Reflect.getMetadata(SCOPE_OPTIONS_METADATA, target) as ScopeOptions | undefined)(target);
};

import { Injectable, type ScopeOptions } from '@nestjs/common';
import { SCOPE_OPTIONS_METADATA } from '@nestjs/common/constants.js';

/**
 * `@Injectable()` for the decorators that make a class a provider (`@McpTool`, `@McpResource`, …): it keeps the
 * scope the class already has (an `@Injectable({ scope })` applied first, or inherited), which a bare
 * `Injectable()` would reset, so a request-scoped tool is refused whichever decorator is written on top.
 */
export const providerInjectable = (): ClassDecorator => (target) => Injectable(Reflect.getMetadata(SCOPE_OPTIONS_METADATA, target) as ScopeOptions | undefined)(target);

import { Scope } from '@nestjs/common';
import type { DiscoveryService } from '@nestjs/core';

import { McpConfigurationError } from '../errors/mcp-configuration.error.js';

/** One provider as Nest's `DiscoveryService` lists it. */
export type ProviderWrapper = ReturnType<DiscoveryService['getProviders']>[number];

/**
 * Every provider with the class its decorators sit on: its own class, or for a value or factory provider its
 * instance's. An alias (`useExisting`) is skipped: its instance is found under its own token.
 */
export function* providerClasses(
  discovery: DiscoveryService,
): Generator<{ readonly metatype: abstract new (...args: never[]) => unknown; readonly wrapper: ProviderWrapper }> {
  for (const wrapper of discovery.getProviders()) {
    if (wrapper.isAlias) continue;
    const metatype = wrapper.isNotMetatype ? (wrapper.instance as { constructor?: unknown } | null | undefined)?.constructor : wrapper.metatype;
    if (typeof metatype === 'function') yield { metatype: metatype as abstract new (...args: never[]) => unknown, wrapper };
  }
}

/** The one instance of a provider that must be a singleton (a tool, resource or prompt), or a configuration error naming `where`. */
export function singletonInstance(wrapper: ProviderWrapper, where: string, noun: string): object {
  // A transient provider's tree is static too (each provider injecting it gets its own instance), so its scope is read as well.
  if (!wrapper.isDependencyTreeStatic() || wrapper.isTransient)
    throw new McpConfigurationError(
      where,
      `a ${noun} must be a singleton provider; request-scoped and transient ${noun}s are not supported${scopedBy(wrapper)}${wrapper.isTransient ? '' : PER_CALL}`,
    );
  const instance = wrapper.instance as object | undefined;
  if (!instance) throw new McpConfigurationError(where, 'the provider has no instance at module init');
  return instance;
}

/** How a singleton reaches a request-scoped service, told where request scope is refused. */
const PER_CALL = '; resolve a request-scoped service per call instead, through ModuleRef under ContextIdFactory.getByRequest(ctx.request) (docs/tools.md)';

/**
 * Why a provider that declares no scope is not a singleton all the same: the dependencies it injects, through its
 * constructor or its properties, that are request-scoped or depend on one (Nest scopes a provider by them; a
 * transient dependency does not: each provider injecting it gets its own instance).
 */
function scopedBy(wrapper: ProviderWrapper): string {
  if (wrapper.scope !== undefined && wrapper.scope !== Scope.DEFAULT) return '';
  // Nest fills either list only where the provider has such dependencies.
  const dependencies = [...(wrapper.getCtorMetadata() ?? []), ...(wrapper.getPropertiesMetadata() ?? []).map((property) => property.wrapper)];
  const scoped = dependencies.filter((dependency) => dependency !== undefined && !dependency.isDependencyTreeStatic()).map((dependency) => String(dependency.name));
  return scoped.length
    ? ` (it declares no scope, but injects ${scoped.join(', ')}, which ${scoped.length > 1 ? 'are not singletons' : 'is not a singleton'}, so Nest scopes it too)`
    : '';
}

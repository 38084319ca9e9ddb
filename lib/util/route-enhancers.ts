import { EXCEPTION_FILTERS_METADATA, GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA } from '@nestjs/common/constants.js';
import { MetadataScanner } from '@nestjs/core';

/** Nest's route enhancers, by the decorator that sets each: Nest applies them to a controller's routes only. */
const ROUTE_ENHANCERS = [
  ['@UseGuards', GUARDS_METADATA],
  ['@UseInterceptors', INTERCEPTORS_METADATA],
  ['@UsePipes', PIPES_METADATA],
  ['@UseFilters', EXCEPTION_FILTERS_METADATA],
] as const;

/** Whether a decorator of the enhancer left something on `target` (Nest stores a list per target). */
function carries(target: object, key: string): boolean {
  const value: unknown = Reflect.getMetadata(key, target);
  return Array.isArray(value) && value.length > 0;
}

/**
 * The route enhancers written on a class or its methods (its own or inherited), each with where it sits:
 * `@UseGuards (on the class, on read())`. Read at startup for the classes the mount calls itself (tools, resources,
 * prompts), which no route reaches, so none of them runs.
 */
export function routeEnhancersOn(target: abstract new (...args: never[]) => unknown): string[] {
  const prototype = target.prototype as Record<string, object>;
  // Its methods as Nest's explorers list them (the tool explorer's `@McpAction` methods too): own and inherited, no
  // accessors. A scanner of its own: a scanner keeps every prototype it scanned.
  const methods = new MetadataScanner().getAllMethodNames(prototype);
  const found: string[] = [];
  for (const [decorator, key] of ROUTE_ENHANCERS) {
    const places = carries(target, key) ? ['the class'] : [];
    for (const name of methods) if (carries(prototype[name]!, key)) places.push(`${name}()`);
    if (places.length > 0) found.push(`${decorator} (on ${places.join(', on ')})`);
  }
  return found;
}

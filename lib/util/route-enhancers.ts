import { EXCEPTION_FILTERS_METADATA, GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA } from '@nestjs/common/constants.js';

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
  const methods = new Map<string, (...args: unknown[]) => unknown>();
  for (let proto: object | null = target.prototype as object; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    const names = Object.getOwnPropertyNames(proto);
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const value = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      if (name !== 'constructor' && !methods.has(name) && typeof value === 'function') methods.set(name, value as (...args: unknown[]) => unknown);
    }
  }
  const found: string[] = [];
  for (const [decorator, key] of ROUTE_ENHANCERS) {
    const places = carries(target, key) ? ['the class'] : [];
    for (const [name, method] of methods) if (carries(method, key)) places.push(`${name}()`);
    if (places.length > 0) found.push(`${decorator} (on ${places.join(', on ')})`);
  }
  return found;
}

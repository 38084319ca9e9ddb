import { Injectable, type ScopeOptions } from '@nestjs/common';
import { SCOPE_OPTIONS_METADATA } from '@nestjs/common/constants.js';

type MarkedClass = { readonly name: string };

/** Each class an MCP decorator marked, held weakly: a class made at run time (a factory's) is not kept for this list. */
const marked = new Set<WeakRef<MarkedClass>>();
/** The same classes, so one marked by two decorators is listed once. */
const markedOnce = new WeakSet<MarkedClass>();
const forgetCollected = new FinalizationRegistry<WeakRef<MarkedClass>>((ref) => marked.delete(ref));

/** The classes an MCP decorator marked in this process and still alive, in the order they were marked (read at startup, never per request). */
export function* markedClasses(): Generator<MarkedClass> {
  for (const ref of marked) {
    const target = ref.deref();
    if (target) yield target;
  }
}

/**
 * `@Injectable()` for the decorators that make a class a provider (`@McpTool`, `@McpResource`, …): it keeps the
 * scope the class already has (an `@Injectable({ scope })` applied first, or inherited), which a bare
 * `Injectable()` would reset, so a request-scoped tool is refused whichever decorator is written on top. It notes
 * the class for {@link markedClasses}.
 */
export const providerInjectable = (): ClassDecorator => (target) => {
  if (!markedOnce.has(target)) {
    markedOnce.add(target);
    const ref = new WeakRef<MarkedClass>(target);
    marked.add(ref);
    forgetCollected.register(target, ref);
  }
  Injectable(Reflect.getMetadata(SCOPE_OPTIONS_METADATA, target) as ScopeOptions | undefined)(target);
};

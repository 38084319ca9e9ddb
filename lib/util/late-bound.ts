import { Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';

/**
 * Nest's lifecycle hooks. Nest runs them on the host's provider itself; the stand-in, the value of a provider of
 * the mount's, hides them, or Nest would run each a second time through it (a connection opened twice at init).
 */
const LIFECYCLE_HOOKS: ReadonlySet<PropertyKey> = new Set(['onModuleInit', 'onApplicationBootstrap', 'onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown']);

/**
 * A host provider's instance, reached through a stand-in until module init. Nest builds modules concurrently, so
 * when a mount's factory runs, a host provider it names may still be under construction (its own dependencies
 * loading), and `ModuleRef.get` would hand out the placeholder Nest made for it, never constructed. The stand-in
 * reads the provider anew on each use until `bind` (module init: every provider constructed), then keeps it; it
 * passes `instanceof` for the provider's class, and has none of Nest's lifecycle hooks. Nothing may use it in a constructor.
 */
export class LateBound<T extends object> {
  private bound: T | undefined;
  /** Each method of the bound instance, bound to it once: the function read, and the bound one. */
  private readonly methods = new Map<PropertyKey, { readonly read: unknown; readonly bound: unknown }>();
  readonly instance: T;

  constructor(
    private readonly type: Type<T>,
    private readonly moduleRef: ModuleRef,
  ) {
    const current = (): T => this.bound ?? this.moduleRef.get(this.type, { strict: false });
    this.instance = new Proxy(Object.create(type.prototype) as T, {
      get: (_target, key) => {
        if (LIFECYCLE_HOOKS.has(key)) return undefined;
        const instance = current();
        const value: unknown = Reflect.get(instance, key, instance);
        if (typeof value !== 'function') return value;
        if (!this.bound) return value.bind(instance);
        // Once bound, each method is bound once, so a call through the stand-in allocates nothing (bound again if
        // the instance's method is replaced, as a test's spy does).
        let method = this.methods.get(key);
        if (method?.read !== value) this.methods.set(key, (method = { read: value, bound: value.bind(instance) }));
        return method.bound;
      },
      set: (_target, key, value) => Reflect.set(current(), key, value),
      has: (_target, key) => !LIFECYCLE_HOOKS.has(key) && Reflect.has(current(), key),
    });
  }

  /** Keeps the provider's instance from now on (module init, when Nest has constructed every provider). */
  bind(): void {
    this.bound = this.moduleRef.get(this.type, { strict: false });
    this.methods.clear();
  }
}

/**
 * The seams given as classes the host provides, each reached through a {@link LateBound} stand-in until module init,
 * when this binds them to the instances Nest has by then constructed.
 */
@Injectable()
export class SeamBindings implements OnModuleInit {
  readonly pending: LateBound<object>[] = [];

  onModuleInit(): void {
    for (const seam of this.pending.splice(0)) seam.bind();
  }
}

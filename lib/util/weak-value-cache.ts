/**
 * A cache by key that holds its values weakly: an entry lasts while something else holds its value, so a
 * process-wide cache shares what live applications use without keeping what only a closed one did.
 */
export class WeakValueCache<K, V extends object> {
  private readonly entries = new Map<K, WeakRef<V>>();
  private readonly forget = new FinalizationRegistry<{ key: K; ref: WeakRef<V> }>(({ key, ref }) => {
    if (this.entries.get(key) === ref) this.entries.delete(key);
  });

  get(key: K): V | undefined {
    return this.entries.get(key)?.deref();
  }

  set(key: K, value: V): void {
    const ref = new WeakRef(value);
    this.entries.set(key, ref);
    this.forget.register(value, { key, ref });
  }

  /** How many entries are held, values collected but not yet forgotten included. */
  get size(): number {
    return this.entries.size;
  }
}

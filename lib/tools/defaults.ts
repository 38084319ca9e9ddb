/**
 * Applies an action's defaults to a call's data, after the dispatch gates have passed it.
 *
 * Rules it owns. A default fills only a property the caller omitted: a property the caller sent, `null`
 * included, keeps its value. The caller's data is never mutated, and each call gets its own copy of every
 * default value, so a handler that mutates its data cannot change the next call's defaults. The merge uses
 * own-property checks and define semantics throughout: a `__proto__` key the caller sent stays an ordinary own
 * key of the data and never reaches a prototype (`{...data}` defines, where `Object.assign` would set).
 * Proven by: test/tools/defaults.spec.ts
 */
export function applyDefaults(data: Readonly<Record<string, unknown>>, defaults: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...data };
  for (const key of Object.keys(defaults)) {
    if (Object.hasOwn(data, key)) continue;
    Object.defineProperty(merged, key, { value: structuredClone(defaults[key]), enumerable: true, writable: true, configurable: true });
  }
  return merged;
}

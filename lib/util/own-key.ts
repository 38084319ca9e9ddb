/**
 * Gives a plain object `target` an own, enumerable, writable key `key` holding `value`, as a definition would: a
 * key named `__proto__` (which JSON may carry) is a key like any other and never sets the prototype.
 */
export function setOwnKey(target: object, key: string, value: unknown): void {
  // Assigning is cheaper, and the same for a key Object.prototype lacks (it holds `__proto__`'s accessor, and may be
  // frozen: assigning `toString` would then throw).
  if (key in Object.prototype) Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
}

/**
 * A shallow copy of a plain object's own enumerable keys, as `{ ...source }` makes it, that may then gain keys
 * cheaply (on Node 20, a key added to a spread copy costs a new hidden class each time: see CONTRIBUTING,
 * Performance). A source with its own `__proto__` key is spread, since assigning that key would set the prototype.
 */
export function ownCopy<T extends object>(source: T): T {
  return Object.hasOwn(source, '__proto__') ? { ...source } : Object.assign({}, source);
}

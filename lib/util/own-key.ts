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

/**
 * Gives `target` an own, enumerable, writable key `key` holding `value`: defined, never assigned, so a key named
 * `__proto__` (which JSON may carry) is a key like any other and never sets the prototype.
 */
export function setOwnKey(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

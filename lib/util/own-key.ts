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
 * Performance). Each string key is set as {@link setOwnKey} sets it, so a `__proto__` key stays a key and a frozen
 * `Object.prototype` cannot make the copy throw (as `Object.assign` would, for a key such as `toString`).
 */
export function ownCopy<T extends object>(source: T): T {
  const copy = ownJsonCopy(source) as Record<PropertyKey, unknown>;
  const from = source as Record<PropertyKey, unknown>;
  const symbols = Object.getOwnPropertySymbols(source);
  for (let i = 0; i < symbols.length; i++) if (Object.prototype.propertyIsEnumerable.call(source, symbols[i]!)) copy[symbols[i]!] = from[symbols[i]!];
  return copy as T;
}

/**
 * {@link ownCopy} of the string keys only, which are all JSON writes: for a copy that is only ever serialized, it
 * skips asking for symbol keys (a call into the runtime).
 */
export function ownJsonCopy<T extends object>(source: T): T {
  const copy: Record<string, unknown> = {};
  const from = source as Record<string, unknown>;
  const keys = Object.keys(source);
  for (let i = 0; i < keys.length; i++) setOwnKey(copy, keys[i]!, from[keys[i]!]);
  return copy as T;
}

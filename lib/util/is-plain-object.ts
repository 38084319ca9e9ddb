/**
 * Whether a value is a JSON object as this library reads one: an object that is neither `null` nor an array.
 * The one predicate the tool model uses wherever a declared or received value must be a map.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

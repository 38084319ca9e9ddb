/** Whether a value is a JSON object as this library reads one: an object that is neither `null` nor an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

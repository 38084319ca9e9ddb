/**
 * The JSON type a string holds the text of, by how it opens (`{` an object, `[` an array, after any whitespace), or
 * undefined: a client or model that encoded a value once too often sends its JSON text in place of it.
 */
export function jsonTextType(value: unknown): 'object' | 'array' | undefined {
  const opening = typeof value === 'string' ? /^\s*([[{])/.exec(value)?.[1] : undefined;
  return opening === '{' ? 'object' : opening === '[' ? 'array' : undefined;
}

/** How a refusal names such a string where a value of `type` is wanted: `not a string of JSON (send the object itself)`. */
export const notJsonText = (type: 'object' | 'array'): string => `not a string of JSON (send the ${type} itself)`;

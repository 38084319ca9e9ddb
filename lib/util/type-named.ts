/** A JSON Schema type as a sentence names it, with its article: `an object`, `a string`, `an integer`, `null` bare. */
export const typeNamed = (type: string): string => (type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`);

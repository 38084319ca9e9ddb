/**
 * Whether `thrown` is V8's stack overflow (`RangeError: Maximum call stack size exceeded`), from this realm or
 * another (ajv's generated code, a test runner's context): read by its name and message, not `instanceof`.
 */
export function isStackOverflow(thrown: unknown): boolean {
  if (typeof thrown !== 'object' || thrown === null) return false;
  const { name, message } = thrown as { name?: unknown; message?: unknown };
  return name === 'RangeError' && typeof message === 'string' && message.includes('call stack');
}

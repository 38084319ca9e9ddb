/** A tool result as a real client library hands it back: its first text content, and whether it is an error. */
export function firstText(result: unknown): { isError?: boolean; text: string } {
  const { content, isError } = result as { content?: { type: string; text?: string }[]; isError?: boolean };
  const text = content?.find((c) => c.type === 'text')?.text ?? '';
  return isError === true ? { isError: true, text } : { text };
}

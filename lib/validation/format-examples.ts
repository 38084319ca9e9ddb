/**
 * The form a value of a format takes, as a refusal shows it: an example the format's own check passes, and what
 * the example alone does not tell (a time zone, a scheme). A caller that wrote `12/07/2026` learns the form at once.
 * Formats without an entry read only their name. Proven by: test/validation/format-examples.spec.ts
 */
export const FORMAT_EXAMPLES: Readonly<Record<string, { readonly example: string; readonly note?: string }>> = {
  'date-time': { example: '2026-07-28T09:00:00Z', note: 'RFC 3339, with a time zone' },
  date: { example: '2026-07-28' },
  time: { example: '09:00:00Z', note: 'with a time zone' },
  'iso-date-time': { example: '2026-07-28T09:00:00' },
  'iso-time': { example: '09:00:00' },
  duration: { example: 'P3DT4H', note: 'ISO 8601' },
  email: { example: 'name@example.com' },
  hostname: { example: 'example.com' },
  ipv4: { example: '192.0.2.1' },
  ipv6: { example: '2001:db8::1' },
  uri: { example: 'https://example.com/a', note: 'absolute, with a scheme' },
  'uri-reference': { example: '/docs/a' },
  uuid: { example: '123e4567-e89b-12d3-a456-426614174000' },
  byte: { example: 'QUJD', note: 'base64' },
};

/** A format's problem: its name, and its form where {@link FORMAT_EXAMPLES} has one. */
export function formatProblem(format: string): string {
  const form = Object.hasOwn(FORMAT_EXAMPLES, format) ? FORMAT_EXAMPLES[format] : undefined;
  if (!form) return `must be a valid ${format}`;
  return `must be a valid ${format}, such as ${JSON.stringify(form.example)}${form.note ? ` (${form.note})` : ''}`;
}

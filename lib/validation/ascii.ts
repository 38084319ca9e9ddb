// Character classes of ASCII by code unit, for the single-pass format checks (a code unit past ASCII is in none).

/** A decimal digit. */
export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** A letter, in either case. */
export const isAlpha = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/** A letter or a decimal digit. */
export const isAlnum = (c: number): boolean => isDigit(c) || isAlpha(c);

/** A hexadecimal digit, in either case. */
const isHex = (c: number): boolean => isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);

/** Whether `s` holds a `%` escape (`%` and two hexadecimal digits) at `i`. */
export const escapeAt = (s: string, i: number): boolean => s.charCodeAt(i) === 0x25 && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2));

/** A table over ASCII marking the characters of `chars` with `bits` (1 by default), to be looked up by code unit. */
export function asciiTable(chars: string, bits = 1, table: Uint8Array = new Uint8Array(128)): Uint8Array {
  for (const c of chars) table[c.charCodeAt(0)]! |= bits;
  return table;
}

/** The ASCII letters, both cases, and digits: what most of the formats' character sets start from. */
export const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

// Character classes of ASCII by code unit, for the single-pass format checks (a code unit past ASCII is in none).

export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** A letter, in either case. */
export const isAlpha = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

export const isAlnum = (c: number): boolean => isDigit(c) || isAlpha(c);

/** A hexadecimal digit, in either case. */
export const isHex = (c: number): boolean => isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);

import { ALNUM, asciiTable } from './ascii.js';

/** The base64 alphabet (RFC 4648 §4), `=` aside. */
const ALPHABET = asciiTable(`${ALNUM}+/`);

/**
 * Whether a string is base64 (RFC 4648 §4), in one pass: whole quanta of four characters of the alphabet, the last
 * one completed by `=` or `==` where short; the empty string (no bytes) included, line breaks not. ajv-formats'
 * `byte` pattern is multiline, so there any one line that is base64 (an empty one included) passes the whole value
 * (`"not base64 ###\n"`); this check is that pattern read over the whole string, which test/validation/formats.spec.ts
 * holds as its oracle.
 */
export function byteFormat(s: string): boolean {
  let padding = 0;
  while (padding < 2 && s.length - padding > 0 && s.charCodeAt(s.length - padding - 1) === 0x3d) padding++;
  const data = s.length - padding;
  for (let i = 0; i < data; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || !ALPHABET[c]) return false;
  }
  return s.length % 4 === 0;
}

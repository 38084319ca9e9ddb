/**
 * How many JSON values a body holds, counted from its bytes before it is parsed, in one pass that allocates
 * nothing: each container opened and each separator between elements or members counts one (an estimate from
 * above by at most the first element of each container). Stops counting past `max`. Bytes inside strings,
 * escapes included, are skipped. Invalid JSON is counted all the same; parsing refuses it later.
 */
export function jsonValuesOver(bytes: Uint8Array, max: number): boolean {
  let count = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if ((byte === COMMA || byte === OPEN_BRACE || byte === OPEN_BRACKET) && ++count > max) return true;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

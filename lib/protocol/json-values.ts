/**
 * Counts the JSON values of a body from its bytes, chunk by chunk as they arrive, before it is parsed: each
 * container opened and each separator between elements or members counts one (an estimate from above by at most
 * the first element of each container). Bytes inside strings, escapes included, are skipped; allocates nothing.
 * Invalid JSON is counted all the same (parsing refuses it later).
 */
export class JsonValueCounter {
  private count = 0;
  private inString = false;
  /** A backslash ended the last chunk inside a string: the next chunk's first byte is escaped. */
  private escaping = false;

  constructor(private readonly max: number) {}

  /** Counts one chunk; true once the body holds more than `max` values (later chunks need not be fed). */
  over(chunk: Uint8Array): boolean {
    let i = 0;
    if (this.escaping) {
      this.escaping = false;
      i = 1;
    }
    for (; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.inString) {
        if (byte === BACKSLASH) {
          if (++i === chunk.length) this.escaping = true;
        } else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) this.inString = true;
      else if ((byte === COMMA || byte === OPEN_BRACE || byte === OPEN_BRACKET) && ++this.count > this.max) return true;
    }
    return false;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

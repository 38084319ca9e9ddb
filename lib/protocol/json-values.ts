/**
 * Counts the JSON values of a body from its bytes, chunk by chunk as they arrive, before it is parsed: each
 * container opened and each separator between elements or members counts one (an estimate from below, short by the
 * first element of each container and by a lone top-level scalar). Bytes inside strings, escapes included, are
 * skipped; allocates nothing. Invalid JSON is counted all the same (parsing refuses it later).
 */
export class JsonValueCounter {
  private count = 0;
  private inString = false;
  /** A backslash ended the last chunk inside a string: the next chunk's first byte is escaped. */
  private escaping = false;

  constructor(private readonly max: number) {}

  /** Counts one chunk; true once the body holds more than `max` values (later chunks need not be fed). */
  over(chunk: Uint8Array): boolean {
    const n = chunk.length;
    if (n === 0) return false;
    let i = 0;
    if (this.escaping) {
      this.escaping = false;
      i = 1;
    }
    if (this.inString) i = this.afterString(chunk, i);
    // The count lives in a local while the loop runs: a field read and written per byte costs twice the time.
    let count = this.count;
    while (i < n) {
      const byte = chunk[i++]!;
      if (byte === QUOTE) i = this.afterString(chunk, i);
      else if ((byte === COMMA || byte === OPEN_BRACE || byte === OPEN_BRACKET) && ++count > this.max) {
        this.count = count;
        return true;
      }
    }
    this.count = count;
    return false;
  }

  /** Skips the rest of a string from `i`, inside it: the index after its closing quote, or the chunk's end. */
  private afterString(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    while (i < n) {
      const byte = chunk[i++]!;
      if (byte === QUOTE) {
        this.inString = false;
        return i;
      }
      if (byte === BACKSLASH) {
        if (i === n) this.escaping = true; // the byte it escapes opens the next chunk
        i++;
      }
    }
    this.inString = true;
    return n;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

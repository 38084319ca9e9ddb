/**
 * A request's header lines as sent, read once from `rawHeaders` (what `headersDistinct` is built from, without its
 * array per name): by lower-cased name, the first line's value, and which names came on more than one line.
 */
export class HeaderLines {
  /** First value by lower-cased name, in order of first appearance (as `headersDistinct` orders its keys). */
  private readonly first: Record<string, string> = Object.create(null) as Record<string, string>;
  private repeats: Set<string> | undefined;

  constructor(raw: readonly string[]) {
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      if (this.first[name] === undefined) this.first[name] = raw[i + 1]!;
      else (this.repeats ??= new Set()).add(name);
    }
  }

  /** The first line's value of a header (lower-cased name), or undefined. */
  value(name: string): string | undefined {
    return this.first[name];
  }

  /** Whether a header (lower-cased name) came on more than one line. */
  repeated(name: string): boolean {
    return this.repeats?.has(name) ?? false;
  }

  /** The names that came on more than one line, in order of first appearance. */
  repeatedNames(): string[] {
    const repeats = this.repeats;
    return repeats ? Object.keys(this.first).filter((name) => repeats.has(name)) : [];
  }
}

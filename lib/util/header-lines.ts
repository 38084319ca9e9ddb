import type { IncomingMessage } from 'node:http';

/**
 * How many header lines of a request Node reads when its server sets no `maxHeadersCount` (its parser keeps 2,000
 * names and values); past them it drops the rest unseen or refuses the request (see {@link dropsExcessHeaderLines}).
 */
export const NODE_HEADER_LINES_READ = 1000;

/** The first release of each Node line whose parser refuses a request with more header lines than its server reads. */
const REFUSING_SINCE: Readonly<Record<number, readonly [minor: number, patch: number]>> = { 22: [23, 2], 24: [18, 1], 26: [5, 1] };

/**
 * Whether a runtime (its `process.versions`) drops the header lines past its server's `maxHeadersCount` unseen.
 * Later Node releases (22.23.2, 24.18.1, 26.5.1, 27 and up) answer such a request 431 themselves, before any
 * framework code runs, so nothing a request carries is ever dropped. Deno drops them whatever Node version it
 * reports (2.9 reports 26.3).
 */
export function dropsExcessHeaderLines(versions: { readonly node: string; readonly deno?: string }): boolean {
  if (versions.deno !== undefined) return true;
  const [major = 0, minor = 0, patch = 0] = versions.node.split('.').map(Number);
  if (major >= 27) return false;
  const since = REFUSING_SINCE[major];
  return since === undefined || minor < since[0] || (minor === since[0] && patch < since[1]);
}

/** Whether the runtime of this process drops header lines (read once: the version cannot change). */
const RUNTIME_DROPS_LINES = dropsExcessHeaderLines(process.versions);

/**
 * Whether Node may have dropped some of a request's header lines unseen: it is a Node that drops them, and it holds
 * as many as its server reads (`server.maxHeadersCount` as Node reads it, else {@link NODE_HEADER_LINES_READ}; 0
 * reads all). A check for repeated lines cannot then tell a repeat past the cut, which an intermediary may have
 * read. Never over HTTP/2, which cuts no lines by count (past `maxHeaderListPairs` the stream is refused).
 */
export function headerLinesMayBeCut(req: IncomingMessage): boolean {
  if (!RUNTIME_DROPS_LINES || req.httpVersionMajor === 2) return false;
  const lines = req.rawHeaders.length / 2;
  const set = (req.socket as { server?: { maxHeadersCount?: unknown } } | null)?.server?.maxHeadersCount;
  // Node keeps `maxHeadersCount << 1` names and values: a 32-bit integer, so 40.5 reads 40 lines, 0.5 and 2 ** 31
  // read all, 2 ** 32 + 40 reads 40.
  const kept = typeof set === 'number' ? set << 1 : 2 * NODE_HEADER_LINES_READ;
  return kept > 0 && lines >= kept / 2;
}

/**
 * Up to this many header lines, names are kept in a list and compared one by one (at most 496 comparisons to find
 * the repeated ones); above it, in a dictionary, so a request with thousands of lines costs linear time.
 */
export const LISTED_LINES_MAX = 32;

/**
 * A request's header lines as sent, read once from `rawHeaders` (what `headersDistinct` is built from, without its
 * array per name): by lower-cased name, the first line's value, and which names came on more than one line.
 */
export class HeaderLines {
  /** Lower-cased name by line, while there are at most {@link LISTED_LINES_MAX} lines. */
  private readonly names: string[] | undefined;
  /** First value by lower-cased name, in order of first appearance, above {@link LISTED_LINES_MAX} lines. */
  private readonly first: Record<string, string> | undefined;
  private repeats: Set<string> | undefined;

  constructor(private readonly raw: readonly string[]) {
    if (raw.length <= 2 * LISTED_LINES_MAX) {
      // A dictionary of a few keys costs more to build than a short list costs to scan.
      const names: string[] = [];
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!.toLowerCase();
        if (names.includes(name)) (this.repeats ??= new Set()).add(name);
        names.push(name);
      }
      this.names = names;
      return;
    }
    const first = Object.create(null) as Record<string, string>;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      if (first[name] === undefined) first[name] = raw[i + 1]!;
      else (this.repeats ??= new Set()).add(name);
    }
    this.first = first;
  }

  /** The first line's value of a header (lower-cased name), or undefined. */
  value(name: string): string | undefined {
    if (this.first) return this.first[name];
    const line = this.names!.indexOf(name);
    return line === -1 ? undefined : this.raw[2 * line + 1];
  }

  /** Whether a header (lower-cased name) came on more than one line. */
  repeated(name: string): boolean {
    return this.repeats?.has(name) ?? false;
  }

  /** How many lines came, and the characters of their names and values together. */
  size(): { lines: number; chars: number } {
    let chars = 0;
    for (const part of this.raw) chars += part.length;
    return { lines: this.raw.length / 2, chars };
  }

  /** The names that came on more than one line, in order of first appearance. */
  repeatedNames(): string[] {
    const repeats = this.repeats;
    if (!repeats) return [];
    return (this.names ? [...new Set(this.names)] : Object.keys(this.first!)).filter((name) => repeats.has(name));
  }
}

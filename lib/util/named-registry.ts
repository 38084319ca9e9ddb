import { McpConfigurationError, declaredName, got } from '../errors/mcp-configuration.error.js';
import { firstListed } from './first-listed.js';
import { NearMisses } from './near-miss.js';

/** Names a conforming client accepts for tools and prompts (the spec's SHOULD), enforced at wire-in. */
const MCP_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** How many valid names a refusal lists, in its message and in its `data` (which also says how many there are). */
export const NAMES_LISTED = 50;

/** The valid names as a refusal's `data` lists them: the first {@link NAMES_LISTED}, sorted, and how many there are. */
export interface NamesListed {
  readonly available: readonly string[];
  readonly availableCount: number;
}

/**
 * Entries by unique name, for the tool and prompt registries: the name check, the one validated wire-in (a
 * duplicate is a `McpConfigurationError` at module init; the tool explorer refuses one first, naming both classes),
 * a Map lookup (a caller's `__proto__` finds nothing) and the entries sorted by name, sorted on the first `list()`
 * after a wire-in (not at each: n wire-ins would cost n sorts).
 */
export class NamedRegistry<T extends { readonly name: string }> {
  private readonly byName = new Map<string, T>();
  /** The entries sorted by name; undefined once a wire-in has made it stale. A listed array is never changed. */
  private sorted: readonly T[] | undefined = [];
  /** What refusals list, built on the first refusal after a wire-in; undefined while stale. */
  private listed: { readonly data: NamesListed; readonly text: string } | undefined;
  /** The names' near misses, built on the first refusal after a wire-in; undefined while stale. */
  private nearMisses: NearMisses | undefined;

  /** @param kind what an entry is, in messages (`tool`, `prompt`) */
  constructor(private readonly kind: string) {}

  /** Refuses a malformed name; called before an entry is built, so later refusals can name it safely. */
  checkName(name: unknown): void {
    if (typeof name !== 'string' || !MCP_NAME.test(name))
      throw new McpConfigurationError(`${this.kind} ${declaredName(name)}`, `a ${this.kind} name must be 1–128 characters of A-Z, a-z, 0-9, "_", "-" and "."${got(name)}`);
  }

  /** Adds an entry; refuses a name already taken. */
  add(entry: T): void {
    if (this.byName.has(entry.name)) throw new McpConfigurationError(`${this.kind} "${entry.name}"`, `is declared more than once (${this.kind} names are unique in a server)`);
    this.byName.set(entry.name, entry);
    this.sorted = undefined;
    this.listed = undefined;
    this.nearMisses = undefined;
  }

  get(name: string): T | undefined {
    return this.byName.get(name);
  }

  /** Every entry, sorted by name. */
  list(): readonly T[] {
    return (this.sorted ??= [...this.byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
  }

  get size(): number {
    return this.byName.size;
  }

  /** The names as a refusal spells them for its reader: the first {@link NAMES_LISTED}, sorted, then `…` and how many there are. */
  listedNames(): string {
    return this.listing().text;
  }

  /** The names as a refusal's `data` lists them, bounded like its message whatever the number of entries. */
  namesListed(): NamesListed {
    return this.listing().data;
  }

  /** The name an unknown `name` nearly spells ({@link NearMisses.meant}), for its refusal; or undefined. */
  nearMissOf(name: string): string | undefined {
    return (this.nearMisses ??= new NearMisses(this.byName.keys())).meant(name);
  }

  private listing(): { readonly data: NamesListed; readonly text: string } {
    if (this.listed) return this.listed;
    const entries = this.list();
    const available = Object.freeze(entries.slice(0, NAMES_LISTED).map((entry) => entry.name));
    const text = firstListed(entries, NAMES_LISTED, { spell: (entry) => entry.name, counted: true });
    return (this.listed = { data: Object.freeze({ available, availableCount: entries.length }), text });
  }
}

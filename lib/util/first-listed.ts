/** How {@link firstListed} spells each item, and whether it says how many there are past the first. */
export interface ListingStyle<T> {
  /** Spells the item at `index` of the list. */
  readonly spell?: (item: T, index: number) => string;
  /** `(N in all)` after the `…`. */
  readonly counted?: boolean;
}

/**
 * The first `max` items, spelled and joined with `, `, then `, …` when there are more: how a refusal lists what is
 * served or allowed. Only the items shown are spelled.
 */
export function firstListed<T>(items: readonly T[], max: number, { spell = String, counted = false }: ListingStyle<T> = {}): string {
  const shown = items.slice(0, max).map(spell).join(', ');
  if (items.length <= max) return shown;
  return `${shown}, …${counted ? ` (${items.length} in all)` : ''}`;
}

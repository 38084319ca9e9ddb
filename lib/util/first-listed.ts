/** The first `max` items joined with `, `, then `, …` when there are more: how a refusal lists what is served. */
export function firstListed(items: readonly string[], max: number): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')}, …`;
}

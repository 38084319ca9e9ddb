/** How many edits (insert, delete, substitute, swap of neighbours) apart a refused name may be from an allowed one to be its near miss. */
const MAX_EDITS = 2;

/** The shortest name {@link nearMiss} compares as a prefix: below it, a prefix says too little. */
const MIN_PREFIX = 4;

/** How loosely {@link nearMiss} matches: whether a prefix counts, and how many edits apart a near miss may be. */
export interface NearMissReach {
  readonly prefixes: boolean;
  readonly maxEdits: number;
}

/**
 * The allowed name a refused one was probably meant as (`readOnly` for `readOnlyHint`), for a refusal's hint, or
 * undefined. Names compare without case, `_` or `-`: the same name spelled otherwise, a prefix of an allowed name
 * (or an allowed name with a tail) when `reach` counts prefixes, then the nearest within `reach.maxEdits` edits.
 */
export function nearMiss(name: string, allowed: readonly string[], reach: NearMissReach = { prefixes: true, maxEdits: MAX_EDITS }): string | undefined {
  const wanted = folded(name);
  const candidates = allowed.map((candidate) => ({ candidate, form: folded(candidate) }));
  const same = candidates.find(({ form }) => form === wanted);
  if (same) return same.candidate;
  const prefix =
    reach.prefixes && candidates.find(({ form }) => (wanted.length >= MIN_PREFIX && form.startsWith(wanted)) || (form.length >= MIN_PREFIX && wanted.startsWith(form)));
  if (prefix) return prefix.candidate;
  let best: { candidate: string; edits: number } | undefined;
  for (const { candidate, form } of candidates) {
    const edits = editDistance(wanted, form);
    if (edits <= reach.maxEdits && (!best || edits < best.edits)) best = { candidate, edits };
  }
  return best?.candidate;
}

/** A name as near misses compare it: lower case, without `_` or `-`. */
export function folded(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment); called at module init on short names only. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, before[j - 2]! + 1);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}

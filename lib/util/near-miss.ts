/** How many edits (insert, delete, substitute) apart a refused name may be from an allowed one to be its near miss. */
const MAX_EDITS = 2;

/** The shortest name {@link nearMiss} compares as a prefix: below it, a prefix says too little. */
const MIN_PREFIX = 4;

/**
 * The allowed name a refused one was probably meant as (`readOnly` for `readOnlyHint`), for a refusal's hint, or
 * undefined. Names compare without case, `_` or `-`: the same name spelled otherwise, a prefix of an allowed name
 * (or an allowed name with a tail), then the nearest within {@link MAX_EDITS} edits.
 */
export function nearMiss(name: string, allowed: readonly string[]): string | undefined {
  const wanted = folded(name);
  const candidates = allowed.map((candidate) => ({ candidate, form: folded(candidate) }));
  const same = candidates.find(({ form }) => form === wanted);
  if (same) return same.candidate;
  const prefix = candidates.find(({ form }) => (wanted.length >= MIN_PREFIX && form.startsWith(wanted)) || (form.length >= MIN_PREFIX && wanted.startsWith(form)));
  if (prefix) return prefix.candidate;
  let best: { candidate: string; edits: number } | undefined;
  for (const { candidate, form } of candidates) {
    const edits = editDistance(wanted, form);
    if (edits <= MAX_EDITS && (!best || edits < best.edits)) best = { candidate, edits };
  }
  return best?.candidate;
}

function folded(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Levenshtein distance, one row at a time; called at module init on short names only. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

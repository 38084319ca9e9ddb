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
    const edits = editsWithin(wanted, form, reach.maxEdits);
    if (edits <= reach.maxEdits && (!best || edits < best.edits)) best = { candidate, edits };
  }
  return best?.candidate;
}

/** A name as near misses compare it: lower case, without `_` or `-`. */
export function folded(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Three rows of {@link editsWithin}'s table, reused by every call (it never runs inside another); grown when short. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)] as const;

/**
 * The edits (insert, delete, substitute, swap of neighbours: optimal string alignment) between `a` and `b`, or
 * `limit + 1` when there are more than `limit`: only cells within `limit` of the diagonal are computed, and it stops
 * at the first row past `limit`, so a lookup costs about `(2 * limit + 1) * a.length` steps whatever the names.
 */
function editsWithin(a: string, b: string, limit: number): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  if (rows[0].length < b.length + 2) rows = [new Int32Array(b.length + 2), new Int32Array(b.length + 2), new Int32Array(b.length + 2)];
  let [before, previous, row] = rows;
  // Row 0 within the band, and the cell past it that row 1 reads.
  for (let j = 0; j <= Math.min(b.length, limit); j++) previous[j] = j;
  previous[Math.min(b.length, limit) + 1] = over;
  for (let i = 1; i <= a.length; i++) {
    const low = Math.max(1, i - limit);
    const high = Math.min(b.length, i + limit);
    row[low - 1] = low === 1 && i <= limit ? i : over;
    let least = row[low - 1]!;
    for (let j = low; j <= high; j++) {
      let edits = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) edits = Math.min(edits, before[j - 2]! + 1);
      row[j] = Math.min(edits, over);
      least = Math.min(least, row[j]!);
    }
    row[high + 1] = over; // the cell past the band that the next row reads
    if (least > limit) return over;
    [before, previous, row] = [previous, row, before];
  }
  return previous[b.length]!;
}

/** The longest name a caller sent that {@link NearMisses} looks at: past it, no allowed name is near. */
const CALLER_NAME_MAX = 256;

/** The most allowed names {@link NearMisses} compares by edits; past it, only the same name spelled otherwise is found. */
export const EDIT_SCAN_MAX = 1000;

/**
 * The near misses of one closed list of allowed names, for refusals of what a caller sent (a tool, action or key
 * name): built once per list, its lookups bounded whatever the caller sent (see {@link NearMisses.meant}).
 */
export class NearMisses {
  /** Each folded form with the one allowed name it stands for, or null when several share it. */
  private readonly byForm = new Map<string, string | null>();
  private readonly forms: readonly { readonly candidate: string; readonly form: string }[];

  constructor(allowed: Iterable<string>) {
    const forms: { candidate: string; form: string }[] = [];
    for (const candidate of allowed) {
      const form = folded(candidate);
      this.byForm.set(form, this.byForm.has(form) ? null : candidate);
      forms.push({ candidate, form });
    }
    this.forms = forms.length <= EDIT_SCAN_MAX ? forms : [];
  }

  /**
   * The one allowed name `name` was probably meant as, or undefined: the same name spelled otherwise (case, `_`,
   * `-`), else the only nearest within one edit for a name of four to seven characters, two from eight (a shorter
   * name is near everything). A tie names none: a wrong guess would send the caller astray.
   */
  meant(name: string): string | undefined {
    if (name.length > CALLER_NAME_MAX) return undefined;
    const wanted = folded(name);
    const same = this.byForm.get(wanted);
    if (same !== undefined) return same ?? undefined;
    const limit = wanted.length >= 8 ? 2 : wanted.length >= 4 ? 1 : 0;
    let best: string | undefined;
    let bestEdits = limit + 1;
    let tied = false;
    for (const { candidate, form } of this.forms) {
      const edits = editsWithin(wanted, form, limit);
      if (edits < bestEdits) [best, bestEdits, tied] = [candidate, edits, false];
      else if (edits === bestEdits && edits <= limit) tied = true;
    }
    return tied ? undefined : best;
  }
}

/** Each owner's near misses, built on its first refusal (an owner's names are fixed once built). */
const nearMissesByOwner = new WeakMap<object, NearMisses>();

/** The near misses of `owner`'s names (an action map, a key node), built from `names` on the first call only. */
export function nearMissesOf(owner: object, names: Iterable<string>): NearMisses {
  let nearMisses = nearMissesByOwner.get(owner);
  if (!nearMisses) nearMissesByOwner.set(owner, (nearMisses = new NearMisses(names)));
  return nearMisses;
}

/** What follows a refused name a caller nearly spelled right (` (did you mean "firstName"?)`), else nothing. */
export function meantHint(name: string, nearMisses: NearMisses): string {
  const meant = nearMisses.meant(name);
  return meant === undefined ? '' : ` (did you mean ${JSON.stringify(meant)}?)`;
}

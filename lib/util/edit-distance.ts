/** Three rows of {@link editsWithin}'s table, reused by every call (it never runs inside another); grown when short. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)] as const;

/** What lookups may still spend, in characters compared and table cells computed: {@link editsWithin} spends it. */
export interface EditBudget {
  steps: number;
}

/**
 * The edits (insert, delete, substitute, swap of neighbours: optimal string alignment) between `a` and `b`, or
 * `limit + 1` when there are more than `limit`, or when `budget` runs out. A common prefix and suffix are skipped
 * (they change no distance); between them only cells within `limit` of the diagonal are computed, and the table
 * stops at the first row past `limit`.
 */
export function editsWithin(a: string, b: string, limit: number, budget: EditBudget = { steps: Infinity }): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  let from = 0;
  while (from < a.length && from < b.length && a.charCodeAt(from) === b.charCodeAt(from)) from++;
  let [aEnd, bEnd] = [a.length, b.length];
  while (aEnd > from && bEnd > from && a.charCodeAt(aEnd - 1) === b.charCodeAt(bEnd - 1)) [aEnd, bEnd] = [aEnd - 1, bEnd - 1];
  budget.steps -= from + (a.length - aEnd);
  const [n, m] = [aEnd - from, bEnd - from];
  if (rows[0].length < m + 2) rows = [new Int32Array(m + 2), new Int32Array(m + 2), new Int32Array(m + 2)];
  let [before, previous, row] = rows;
  // Row 0 within the band, and the cell past it that row 1 reads.
  for (let j = 0; j <= Math.min(m, limit); j++) previous[j] = j;
  previous[Math.min(m, limit) + 1] = over;
  for (let i = 1; i <= n; i++) {
    const low = Math.max(1, i - limit);
    const high = Math.min(m, i + limit);
    budget.steps -= high - low + 1;
    if (budget.steps < 0) return over;
    row[low - 1] = low === 1 && i <= limit ? i : over;
    let least = row[low - 1]!;
    const ai = a.charCodeAt(from + i - 1);
    for (let j = low; j <= high; j++) {
      const bj = b.charCodeAt(from + j - 1);
      let edits = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(from + j - 2) && a.charCodeAt(from + i - 2) === bj) edits = Math.min(edits, before[j - 2]! + 1);
      row[j] = Math.min(edits, over);
      least = Math.min(least, row[j]!);
    }
    row[high + 1] = over; // the cell past the band that the next row reads
    if (least > limit) return over;
    [before, previous, row] = [previous, row, before];
  }
  return previous[m]!;
}

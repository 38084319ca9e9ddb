// What a bench script reads and prints: its numeric knobs from the environment, percentiles of its timings, figures
// formatted to a few digits, and plain-text tables.

/** The number in the environment variable `name`, or `fallback` when it is unset or empty. */
export const env = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : Number(process.env[name]));

/** A sorted copy of `values`, smallest first. */
export const sorted = (values) => [...values].sort((a, b) => a - b);

/** The `p`-th percentile of `values` (nearest rank; 50 is the median); NaN when there are none. */
export const percentile = (values, p) => {
  const s = sorted(values);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] : NaN;
};

/** Milliseconds (or any figure) to print: whole from 100 up, one decimal below, `-` for NaN. */
export const fmt = (ms) => (Number.isNaN(ms) ? '-' : ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

/** Prints `rows` (the first the header) as aligned columns: the first left, the rest right, the last left too with `textLast`. */
export function table(rows, { textLast = false } = {}) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
  const left = (c, row) => c === 0 || (textLast && c === row.length - 1);
  for (const [i, row] of rows.entries()) {
    console.log(row.map((cell, c) => (left(c, row) ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

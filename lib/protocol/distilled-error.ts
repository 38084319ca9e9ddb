import { bounded } from '../util/bounded.js';
import { escapedSegment } from '../util/json-pointer.js';
import type { SchemaProblem } from '../validation/schema-problems.js';

/**
 * The distilled error: the `data` a schema-check refusal carries (`{errorCount, errors: [{location, problems}]}`),
 * its locations spelled as instance locations, and the first problem its message ends with.
 */

/** The longest path segment an instance location spells out; a longer one is cut (bounded). */
const SEGMENT_BOUND = 64;

/** Spells path segments as an instance location: a JSON Pointer (RFC 6901), each segment bounded. */
export function instanceLocation(path: readonly (string | number)[]): string {
  return path.map((s) => '/' + escapedSegment(bounded(String(s), SEGMENT_BOUND))).join('');
}

/** How many locations a distilled error lists at most. */
const DISTILLED_LOCATIONS_MAX = 10;

/** One entry of a distilled error: a failing location and what is wrong there. */
export interface DistilledEntry {
  location: string;
  problems: string[];
}

/**
 * The distilled error's `data`: one entry per failing location (JSON Pointer from the message root), at most
 * {@link DISTILLED_LOCATIONS_MAX}, `errorCount` counting all; problems in this library's words, never ajv's.
 */
export function distilledData(problems: readonly SchemaProblem[], prefix: readonly (string | number)[] = []) {
  const byLocation = new Map<string, string[]>();
  for (const { path, problem } of problems) {
    const location = instanceLocation([...prefix, ...path]);
    const entry = byLocation.get(location);
    if (entry) entry.push(problem);
    else byLocation.set(location, [problem]);
  }
  const errors: DistilledEntry[] = [...byLocation].slice(0, DISTILLED_LOCATIONS_MAX).map(([location, list]) => ({ location, problems: list }));
  return { errorCount: byLocation.size, errors };
}

/**
 * A distilled error's first problem, to end a refusal's message with (`; at /params/uri, must be a string`, and how
 * many locations follow, of which `data.errors` lists up to ten): a client that shows its user or model only the
 * message still shows what to fix. Every distilled refusal's message ends with it.
 */
export function firstProblem({ errorCount, errors: [first] }: ReturnType<typeof distilledData>): string {
  if (!first) return '';
  const more = errorCount > 1 ? ` (and ${errorCount - 1} more location${errorCount > 2 ? 's' : ''}; see data.errors)` : '';
  return `; at ${first.location === '' ? 'the message root' : bounded(first.location, 200)}, ${first.problems[0]}${more}`;
}

import { quoted } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { folded, nearMiss } from '../util/near-miss.js';
import { schemaPath } from './json-value.js';
import { ALSO_APPLIED, SCHEMA_APPLICATORS, someSubschema } from './schema-applicators.js';

/**
 * Keywords ajv knows whose misspelling changes nothing a schema accepts: identifiers, annotations, content hints
 * and `default` (applied by nothing: ajv runs without `useDefaults`). A near miss of one of these is not reported;
 * a near miss of any other known keyword (an assertion or an applicator) is, because ajv ignores an unknown keyword
 * and the check it was meant as silently goes.
 * Proven by: test/validation/misspelled-keywords.spec.ts (every keyword ajv knows, one case each)
 */
export const NOT_ASSERTING: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  'id',
  '$vocabulary',
  '$comment',
  '$dynamicAnchor',
  '$recursiveAnchor',
  '$defs',
  'definitions',
  '$async',
  'title',
  'description',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'default',
]);

/** One key of a schema object that is no keyword but a near miss of an asserting one. */
export interface MisspelledKeyword {
  /** Where the key was written, as a schema path (`#/properties/name`). */
  readonly at: string;
  readonly written: string;
  readonly meant: string;
}

/** How many misspelled keywords of one schema are warned of one by one; the rest are counted in one more line. */
export const MISSPELLED_LISTED = 10;

/** Applicators whose subschemas only annotate (ajv checks nothing in them). */
const NOT_WALKED = new Set(['contentSchema']);

/** Whether `a` is `b` with two neighbouring characters swapped (`tpye` for `type`). */
function isNeighbourSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/**
 * The keyword ajv knows that `key` was probably meant as, or undefined: the same name in another case or with
 * `_`/`-` at any length; from 4 characters a swap of neighbours (`itmes`); from 7 one edit or swap (`minimun`).
 * Shorter names are left alone: one slip from a short keyword is too often a word of its own (`note`, `cost`).
 */
function meantKeyword(key: string, known: readonly string[], knownFolded: readonly string[]): string | undefined {
  const form = folded(key);
  const same = knownFolded.indexOf(form);
  if (same >= 0) return known[same];
  if (form.length < 4) return undefined;
  if (form.length < 7) {
    for (let i = 0; i < known.length; i++) if (isNeighbourSwap(form, knownFolded[i]!)) return known[i];
    return undefined;
  }
  return nearMiss(key, known, { prefixes: false, maxEdits: 1 });
}

/**
 * The keys of a schema, under every applicator ajv checks, that ajv does not know and that are a near miss of an
 * asserting keyword (`maxlength`, `requried`, `itmes`): ajv ignores them, so the schema accepts what its author
 * meant to refuse. A key nearest an annotation (`example`) is not one; vendor keys (`x-...`) and values
 * (`properties`' names, `default`, `enum`) are never read. Module init only; each distinct key is matched once.
 */
export function misspelledKeywords(schema: unknown, known: readonly string[]): MisspelledKeyword[] {
  const knownSet = new Set(known);
  const knownFolded = known.map(folded);
  const meantBy = new Map<string, string | undefined>();
  const found: MisspelledKeyword[] = [];
  // One path, extended and cut back as the walk goes.
  const path: (string | number)[] = [];
  const walk = (node: unknown): void => {
    if (!isPlainObject(node)) return;
    const keys = Object.keys(node);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const kind = NOT_WALKED.has(key) ? undefined : (SCHEMA_APPLICATORS.get(key) ?? ALSO_APPLIED.get(key));
      if (kind !== undefined) {
        path.push(key);
        walkApplicator(kind, node[key]);
        path.pop();
        continue;
      }
      if (knownSet.has(key) || /^x-/i.test(key)) continue;
      let meant = meantBy.get(key);
      if (!meantBy.has(key)) meantBy.set(key, (meant = meantKeyword(key, known, knownFolded)));
      if (meant !== undefined && !NOT_ASSERTING.has(meant)) found.push({ at: schemaPath(path), written: key, meant });
    }
  };
  const walkApplicator = (kind: 'one' | 'list' | 'map', value: unknown): void => {
    someSubschema(kind, value, (subschema, segment) => {
      if (segment !== undefined) path.push(segment);
      walk(subschema);
      if (segment !== undefined) path.pop();
      return undefined;
    });
  };
  walk(schema);
  return found;
}

/**
 * The module-init warnings for one schema's {@link MisspelledKeyword}s, `where` naming its declaration: one line each
 * for the first {@link MISSPELLED_LISTED}, then one counting the rest.
 */
export function misspelledKeywordWarnings(where: string, found: readonly MisspelledKeyword[]): string[] {
  const lines = found
    .slice(0, MISSPELLED_LISTED)
    .map(
      ({ at, written, meant }) =>
        `${where}: ${quoted(written, 60)} at ${at} is not a JSON Schema keyword, so nothing checks it; did you mean ${JSON.stringify(meant)}? (prefix it with x- if it is yours)`,
    );
  if (found.length > MISSPELLED_LISTED) lines.push(`${where}: ${found.length - MISSPELLED_LISTED} more keys are near misses of JSON Schema keywords`);
  return lines;
}

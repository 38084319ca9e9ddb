import { isPlainObject } from '../util/is-plain-object.js';
import { nearMiss, type NearMissReach } from '../util/near-miss.js';
import { schemaPath } from './json-value.js';
import { SCHEMA_APPLICATORS } from './schema-applicators.js';

/**
 * Keywords ajv knows whose misspelling changes nothing a schema accepts: identifiers, annotations and content
 * hints. A near miss of one of these is not reported; a near miss of any other known keyword (an assertion, an
 * applicator, `default`) is, because ajv ignores an unknown keyword and the check it was meant as silently goes.
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
]);

/** One key of a schema object that is no keyword but a near miss of an asserting one. */
export interface MisspelledKeyword {
  /** Where the key was written, as a schema path (`#/properties/name`). */
  readonly at: string;
  readonly written: string;
  readonly meant: string;
}

/** How near a key must be: the same name in another case or separator at any length, a swap or edit from 4, two from 7. */
const reachFor = (name: string): NearMissReach => ({ prefixes: false, maxEdits: name.length < 4 ? 0 : name.length < 7 ? 1 : 2 });

/**
 * The keys of a schema, under every applicator, that ajv does not know and that are a near miss of an asserting
 * keyword (`maxlength`, `requried`, `itmes`): ajv ignores them, so the schema accepts what its author meant to
 * refuse. Vendor keys (`x-...`) and values (`properties`' names, `default`, `enum`) are never read. Module init only.
 */
export function misspelledKeywords(schema: unknown, known: readonly string[]): MisspelledKeyword[] {
  const knownSet = new Set(known);
  const asserting = known.filter((keyword) => !NOT_ASSERTING.has(keyword));
  const found: MisspelledKeyword[] = [];
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (!isPlainObject(node)) return;
    const keys = Object.keys(node);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const kind = SCHEMA_APPLICATORS.get(key);
      if (kind !== undefined) {
        path.push(key);
        const value = node[key];
        if (kind === 'one') walk(value, path);
        else if (kind === 'list' && Array.isArray(value)) for (let j = 0; j < value.length; j++) walk(value[j], [...path, j]);
        else if (kind === 'map' && isPlainObject(value)) for (const name of Object.keys(value)) walk(value[name], [...path, name]);
        path.pop();
        continue;
      }
      if (knownSet.has(key) || /^x-/i.test(key)) continue;
      const meant = nearMiss(key, asserting, reachFor(key));
      if (meant !== undefined) found.push({ at: schemaPath(path), written: key, meant });
    }
  };
  walk(schema, []);
  return found;
}

/** The module-init warning for one {@link MisspelledKeyword}; `where` names the schema's declaration. */
export function misspelledKeywordWarning(where: string, { at, written, meant }: MisspelledKeyword): string {
  return `${where}: ${JSON.stringify(written)} at ${at} is not a JSON Schema keyword, so nothing checks it; did you mean ${JSON.stringify(meant)}?`;
}

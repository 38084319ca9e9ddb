import type { Ajv2020 } from 'ajv/dist/2020.js';

import { canonicalJson } from '../util/canonical-json.js';

/**
 * Replaces ajv's `uniqueItems` with a check linear in the array's size. ajv compares every pair of items that may
 * be objects or arrays (20,000 small objects cost about ten seconds of event loop), so one caller could stall the
 * server with a list the value cap admits. Here each item is spelled once in canonical JSON (`canonicalJson`:
 * object keys sorted) and looked up in a set: the same equality, JSON's (`1` and `1.0` are one number, key order is
 * not part of an object). A failure is ajv's `uniqueItems` error without the pair's indexes, which no problem
 * wording reads.
 * Applied by `callerValueAjv`. Proven by: test/tools/value-gate.spec.ts, test/e2e/tool-value-gate.e2e-spec.ts
 */
export function linearUniqueItems(ajv: Ajv2020): Ajv2020 {
  ajv.removeKeyword('uniqueItems');
  return ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: false,
    validate: (unique: boolean, data: readonly unknown[]) => !unique || holdsNoDuplicate(data),
  });
}

function holdsNoDuplicate(items: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const spelled = canonicalJson(items[i]);
    if (seen.has(spelled)) return false;
    seen.add(spelled);
  }
  return true;
}

import type { Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

import { addFormats } from './add-formats.js';
import { jsonEqualConstEnum } from './const-enum.js';
import { decimalMultipleOf } from './decimal-multiple-of.js';
import { CALLER_VALUE_CHECK } from './linear-errors.js';
import { PATTERN_ENGINE } from './pattern-test.js';
import { linearUniqueItems } from './unique-items.js';

/**
 * An ajv instance for consumer-written schemas that check what a caller sent: `CALLER_VALUE_CHECK` (then
 * `overrides`), formats asserted, `uniqueItems` linear, `multipleOf` decided in decimal, a string V8 cannot match
 * against a pattern thrown as such (`PATTERN_ENGINE`), `const` and `enum` comparing objects by their own keys only,
 * the schema itself not validated by ajv (the precompiled meta-schema checks it first). Every instance that checks a
 * caller's value at run time is built here, so none misses a safeguard.
 */
export function callerValueAjv(overrides: Options = {}): Ajv2020 {
  const options: Options = { ...CALLER_VALUE_CHECK, code: { ...CALLER_VALUE_CHECK.code, regExp: PATTERN_ENGINE }, validateSchema: false, ...overrides };
  return jsonEqualConstEnum(decimalMultipleOf(linearUniqueItems(addFormats(new Ajv2020(options)))));
}

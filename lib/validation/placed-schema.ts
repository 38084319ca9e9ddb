import type { ErrorObject } from 'ajv';

import { pointerSegments } from '../util/json-pointer.js';
import { localRefKeys, resolveLocalRef, type SchemaDocument } from './local-ref.js';
import { ALSO_APPLIED, SCHEMA_APPLICATORS } from './schema-applicators.js';

/**
 * How each applicator's subschema steps down the value, by the instance segment it is checked at: a named property or
 * tuple index (`named`, the schema path's next segment), any key or index; any other applicator (`allOf`, `not`,
 * `$defs`, …) applies at the same place.
 */
const STEPS_DOWN: Readonly<Record<string, 'named' | 'any'>> = {
  properties: 'named',
  prefixItems: 'named',
  patternProperties: 'any',
  additionalProperties: 'any',
  unevaluatedProperties: 'any',
  items: 'any',
  contains: 'any',
  unevaluatedItems: 'any',
};

/**
 * The schema `error`'s keyword sits in, where its schema path leads in `document`, or undefined when the path cannot
 * be trusted to start there: ajv starts a path again at `#` inside a `$ref` it compiles apart (and at the `$ref`'s
 * own pointer inside one it inlines), so a path is read only when its steps walk down exactly to the error's
 * location from the root, or it starts at a definition (`#/$defs/…`) and they walk down to the end of that location.
 */
export function placedSchema(error: ErrorObject, document: SchemaDocument): Record<string, unknown> | undefined {
  const keyword = `/${error.keyword}`;
  if (!error.schemaPath.startsWith('#') || !error.schemaPath.endsWith(keyword)) return undefined;
  const at = error.schemaPath.slice(0, -keyword.length) || '#';
  const steps = walkedDown(at);
  if (!steps) return undefined;
  const location = pointerSegments(error.instancePath).map(String);
  const fromDefinition = /^#\/(?:\$defs|definitions)\//.test(at);
  if (fromDefinition ? steps.length > location.length : steps.length !== location.length) return undefined;
  const tail = location.slice(location.length - steps.length);
  return steps.every((step, i) => step === undefined || step === tail[i]) ? resolveLocalRef(document, at) : undefined;
}

/** The instance segments a schema path walks down (undefined where any key or index will do), or undefined. */
function walkedDown(pointer: string): (string | undefined)[] | undefined {
  const segments = localRefKeys(pointer);
  if (!segments) return undefined;
  const down: (string | undefined)[] = [];
  for (let i = 0; i < segments.length; i++) {
    const keyword = segments[i]!;
    const kind = SCHEMA_APPLICATORS.get(keyword) ?? ALSO_APPLIED.get(keyword);
    const member = kind === 'one' ? undefined : segments[++i];
    if (!kind || (kind !== 'one' && member === undefined)) return undefined;
    const step = Object.hasOwn(STEPS_DOWN, keyword) ? STEPS_DOWN[keyword] : undefined;
    if (step === 'named') down.push(member);
    else if (step === 'any') down.push(undefined);
  }
  return down;
}

import type { ErrorObject } from 'ajv';

import { pointerSegments } from '../util/json-pointer.js';
import { resolveLocalRef, type SchemaDocument } from './local-ref.js';

/** How many instance segments each applicator keyword of a schema path steps down, and whether it names a member. */
const STEPS: Readonly<Record<string, { readonly down: 'named' | 'key' | 'index' | 'none'; readonly member: boolean }>> = {
  properties: { down: 'named', member: true },
  patternProperties: { down: 'key', member: true },
  additionalProperties: { down: 'key', member: false },
  unevaluatedProperties: { down: 'key', member: false },
  prefixItems: { down: 'named', member: true },
  items: { down: 'index', member: false },
  contains: { down: 'index', member: false },
  unevaluatedItems: { down: 'index', member: false },
  allOf: { down: 'none', member: true },
  anyOf: { down: 'none', member: true },
  oneOf: { down: 'none', member: true },
  not: { down: 'none', member: false },
  if: { down: 'none', member: false },
  then: { down: 'none', member: false },
  else: { down: 'none', member: false },
  dependentSchemas: { down: 'none', member: true },
  $defs: { down: 'none', member: true },
  definitions: { down: 'none', member: true },
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
  let segments: string[];
  try {
    segments =
      pointer === '#'
        ? []
        : pointer
            .slice(2)
            .split('/')
            .map((raw) => decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return undefined;
  }
  const down: (string | undefined)[] = [];
  for (let i = 0; i < segments.length; i++) {
    const step = Object.hasOwn(STEPS, segments[i]!) ? STEPS[segments[i]!]! : undefined;
    if (!step) return undefined;
    const member = step.member ? segments[++i] : undefined;
    if (step.member && member === undefined) return undefined;
    if (step.down === 'named') down.push(member);
    else if (step.down !== 'none') down.push(undefined);
  }
  return down;
}

import type { ErrorObject } from 'ajv';

/**
 * One problem, worded here from the failing keyword and schema (ajv's messages never reach the wire, and no
 * caller-sent value is quoted); a caller-sent property name is a path segment, so it is bounded like one.
 */
export interface SchemaProblem {
  /** Segments from the validated value's root to the offending value. */
  readonly path: readonly (string | number)[];
  /** One sentence fragment, for example `must be integer`. */
  readonly problem: string;
}

const list = (values: unknown, max = 8): string => {
  const items = Array.isArray(values) ? values : [values];
  const shown = items.slice(0, max).map((v) => JSON.stringify(v) ?? String(v));
  return shown.join(', ') + (items.length > max ? `, … (${items.length} in all)` : '');
};

function wordProblem(error: ErrorObject): { extra?: string | number; problem: string } {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { problem: `missing required property ${JSON.stringify(p.missingProperty)}` };
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return { extra: String(p.additionalProperty ?? p.unevaluatedProperty), problem: 'is not an allowed property' };
    case 'type':
      return { problem: `must be ${String(p.type).split(',').join(' or ')}` };
    case 'const':
      return { problem: `must be ${list([p.allowedValue])}` };
    case 'enum':
      return { problem: `must be one of ${list(p.allowedValues)}` };
    case 'format':
      return { problem: `must be a valid ${String(p.format)}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { problem: `must be ${String(p.comparison)} ${String(p.limit)}` };
    case 'multipleOf':
      return { problem: `must be a multiple of ${String(p.multipleOf)}` };
    case 'minLength':
      return { problem: `must have at least ${String(p.limit)} character(s)` };
    case 'maxLength':
      return { problem: `must have at most ${String(p.limit)} character(s)` };
    case 'minItems':
      return { problem: `must have at least ${String(p.limit)} item(s)` };
    case 'maxItems':
      return { problem: `must have at most ${String(p.limit)} item(s)` };
    case 'minProperties':
      return { problem: `must have at least ${String(p.limit)} propert(ies)` };
    case 'maxProperties':
      return { problem: `must have at most ${String(p.limit)} propert(ies)` };
    case 'uniqueItems':
      return { problem: 'must not contain duplicate items' };
    case 'pattern':
      return { problem: `must match the pattern ${JSON.stringify(p.pattern)}` };
    case 'anyOf':
      return { problem: 'must match at least one of the allowed shapes' };
    case 'oneOf':
      return { problem: 'must match exactly one of the allowed shapes' };
    case 'not':
      return { problem: 'must not match the excluded shape' };
    case 'dependentRequired':
    case 'dependencies':
      return { problem: `must also have ${JSON.stringify(p.missingProperty)} when ${JSON.stringify(p.property)} is present` };
    case 'propertyNames':
      return { extra: String(p.propertyName), problem: 'is not an allowed property name' };
    case 'contains': {
      const atMost = p.maxContains === undefined ? '' : ` and at most ${String(p.maxContains)}`;
      return { problem: `must contain at least ${String(p.minContains ?? 1)}${atMost} matching item(s)` };
    }
    case 'if':
      return p.failingKeyword === 'else'
        ? { problem: 'must match the "else" schema (it does not match the "if" schema)' }
        : { problem: 'must match the "then" schema (it matches the "if" schema)' };
    case 'false schema':
      return { problem: 'is not allowed here' };
    default:
      return { problem: `does not satisfy "${error.keyword}"` };
  }
}

function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

/** Keywords that try subschemas and answer for the outcome themselves: their trials' errors are not offences. */
const TRYING = new Set(['anyOf', 'oneOf', 'contains']);

/** Where an error is, as a JSON pointer: its instance location, then the key `propertyNames` refused when there is one. */
const pointerOf = (error: ErrorObject): string =>
  error.propertyName === undefined ? error.instancePath : `${error.instancePath}/${error.propertyName.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** Whether `pointer` is `at` or a location below it. */
const isAtOrBelow = (pointer: string, at: string): boolean => at === '' || pointer === at || pointer.startsWith(`${at}/`);

/**
 * Marks the trial errors of each failing trying keyword: ajv pushes the trials' errors, then the keyword's own,
 * so they are the contiguous run just before it at or below its location (schema paths cannot tell, `$ref` moves
 * them). Linear: a nested keyword's marked run is skipped in one step.
 */
function trialErrors(errors: readonly ErrorObject[]): boolean[] {
  const trial = new Array<boolean>(errors.length).fill(false);
  const runStart = new Map<number, number>();
  for (let i = 0; i < errors.length; i++) {
    if (!TRYING.has(errors[i]!.keyword)) continue;
    const at = pointerOf(errors[i]!);
    let j = i - 1;
    while (j >= 0 && isAtOrBelow(pointerOf(errors[j]!), at)) {
      trial[j] = true;
      j = (runStart.get(j) ?? j) - 1;
    }
    runStart.set(i, j + 1);
  }
  return trial;
}

/**
 * Turns ajv's errors into problems, in ajv's order without duplicates. A failing `anyOf`/`oneOf`/`contains` stands
 * for its trials (one line per location, not per branch); keywords beside it keep theirs, so every offence counts.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined): SchemaProblem[] {
  if (!errors?.length) return [];
  const trial = trialErrors(errors);
  // A key `propertyNames` refuses: ajv reports the failing keyword (located at the object, the key beside it)
  // and then `propertyNames` itself; the first is worded at the key, the second is then redundant.
  const namedKeys = new Set(errors.filter((e) => e.propertyName !== undefined).map((e) => JSON.stringify([e.instancePath, e.propertyName])));
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const [index, error] of errors.entries()) {
    if (trial[index]) continue;
    const path = pointerSegments(error.instancePath);
    if (error.keyword === 'propertyNames' && namedKeys.has(JSON.stringify([error.instancePath, (error.params as { propertyName?: unknown }).propertyName]))) continue;
    const worded = wordProblem(error);
    const { extra, problem } = error.propertyName === undefined ? worded : { extra: error.propertyName, problem: `its name ${worded.problem}` };
    const fullPath = extra === undefined ? path : [...path, extra];
    const key = JSON.stringify([fullPath, problem]);
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ path: fullPath, problem });
  }
  return problems;
}

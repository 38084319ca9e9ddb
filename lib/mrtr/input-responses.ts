import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { distilledData, firstProblem } from '../protocol/distilled-error.js';
import type { ProtocolSchema } from '../protocol/protocol-schema.js';
import { PatternOverflowError, placeOf } from '../validation/pattern-test.js';
import { describeSchemaErrors } from '../validation/schema-problems.js';
import type { ElicitationSchemaCache } from './elicitation-schema-cache.js';
import { INPUT_KINDS, type InputKind } from './input-kinds.js';

/** Where an answer sits: how a refusal names it, and its instance location. */
export interface AnswerPlace {
  readonly key: string;
  readonly label: string;
  readonly path: readonly (string | number)[];
}

/** An answer in a retried request's `inputResponses` (the modern era). */
export const inInputResponses = (key: string): AnswerPlace => ({ key, label: `inputResponses[${JSON.stringify(key)}]`, path: ['params', 'inputResponses', key] });

/** Refuses an answer that does not parse as what was asked: -32602 at 400, like a broken `inputResponses`. */
function invalidAnswer(place: AnswerPlace, what: string, problems: ReturnType<typeof describeSchemaErrors>, under: readonly (string | number)[] = []) {
  const distilled = distilledData(problems, [...place.path, ...under]);
  return new McpMethodError(
    JSON_RPC_CODES.invalidParams,
    `Invalid params: ${place.label} ${what}${firstProblem(distilled)}.`,
    { reason: 'invalid_input_response', key: place.key, ...distilled },
    400,
  );
}

/**
 * Reads one answer (from `inputResponses` or `requestState`) as the kind asked for: it reaches the tool only once it
 * parses as that kind's result and, for an accepted form elicitation, `content` matches the requested schema;
 * otherwise -32602 `invalid_input_response`. An elicitation answer reaches the tool as its type says: a decline or
 * cancel without `content`, an accepted form's `content` with only the fields the form declares (the others are
 * dropped before the check, so they are never refused, as a form closed with `additionalProperties: false` would);
 * an accepted URL-mode one without `content`, as a decline or cancel.
 * Proven by: test/e2e/mrtr.e2e-spec.ts ("refuses an answer …", "hands an accepted URL-mode elicitation …")
 */
export function readAnswer(
  kind: InputKind,
  place: AnswerPlace,
  answer: unknown,
  request: Readonly<Record<string, unknown>>,
  checks: { readonly protocol: ProtocolSchema; readonly schemas: ElicitationSchemaCache },
): unknown {
  const spec = INPUT_KINDS[kind];
  const problems = checks.protocol.check(spec.answerDefinition, answer);
  if (problems.length) throw invalidAnswer(place, `is not a valid ${spec.answerDefinition} (the answer to ${spec.method})`, problems);
  if (kind !== 'elicitation') return answer;
  const { content, ...rest } = answer as { action: string; content?: Record<string, unknown> };
  // A decline, a cancel and a URL-mode accept carry no content (MCP: only an accepted form does), whatever the client sent.
  if (rest.action !== 'accept' || request.mode === 'url') return rest;
  const requested = request.requestedSchema as { properties?: Record<string, unknown> };
  // Only the declared fields are checked: the others never reach the tool, and checked they could fail by thousands.
  const declared = declaredOnly(content ?? {}, requested.properties ?? {});
  const validate = checks.schemas.validator(requested);
  let valid: boolean;
  try {
    valid = validate(declared);
  } catch (thrown) {
    // A field too long to be matched against its pattern (a tool's form may declare one): refused where it is.
    if (!(thrown instanceof PatternOverflowError)) throw thrown;
    throw invalidAnswer(place, 'does not match the requested schema', [{ path: placeOf(declared, thrown.sent) ?? [], problem: thrown.message }], ['content']);
  }
  if (!valid) throw invalidAnswer(place, 'does not match the requested schema', describeSchemaErrors(validate.errors), ['content']);
  return { ...rest, content: declared };
}

/** The fields of an accepted form that the form declares (a client's extra keys never reach the tool). */
function declaredOnly(content: Record<string, unknown>, declared: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name of Object.keys(content)) if (Object.hasOwn(declared, name)) kept[name] = content[name];
  return kept;
}

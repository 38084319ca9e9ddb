import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { distilledData } from '../protocol/json-rpc.js';
import type { ProtocolSchema } from '../protocol/protocol-schema.js';
import { describeSchemaErrors } from '../validation/schema-problems.js';
import type { ElicitationSchemaCache } from './elicitation-schema-cache.js';
import { INPUT_KINDS, type InputKind } from './input-kinds.js';

/** Where the client's answers sit in a retried request, for instance locations. */
const RESPONSES_PATH = ['params', 'inputResponses'] as const;

/**
 * The refusal of an answer that does not parse as what was asked: -32602, HTTP 400 (the same status as a
 * structurally broken `inputResponses`, which method routing refuses), naming the key and each problem.
 */
function invalidAnswer(key: string, what: string, problems: ReturnType<typeof describeSchemaErrors>, under: readonly (string | number)[] = []) {
  return new McpMethodError(JSON_RPC_CODES.invalidParams, `Invalid params: inputResponses[${JSON.stringify(key)}] ${what}.`, {
    reason: 'invalid_input_response',
    key,
    ...distilledData(problems, [...RESPONSES_PATH, key, ...under]),
  }, 400);
}

/**
 * Reading one answer of a retried request (`inputResponses[key]`, or an answer carried in `requestState`) as
 * the kind the tool asked for. Rule it owns: an answer reaches a tool only once it parses as that kind's result
 * (`ElicitResult`, `CreateMessageResult`, `ListRootsResult`) and, for an accepted form elicitation, once its
 * `content` satisfies the requested schema; otherwise the request is refused (-32602, `reason:
 * "invalid_input_response"`), never answered by the tool. That `inputResponses` is a map of objects is method
 * routing's to check (the method's request definition); keys nobody asks for are ignored (R108).
 * Proven by: test/e2e/mrtr.e2e-spec.ts ("refuses an answer …")
 */
export function readAnswer(
  kind: InputKind,
  key: string,
  answer: unknown,
  request: Readonly<Record<string, unknown>>,
  checks: { readonly protocol: ProtocolSchema; readonly schemas: ElicitationSchemaCache },
): unknown {
  const spec = INPUT_KINDS[kind];
  const problems = checks.protocol.check(spec.answerDefinition, answer);
  if (problems.length) throw invalidAnswer(key, `is not a valid ${spec.answerDefinition} (the answer to ${spec.method})`, problems);
  if (kind !== 'elicitation') return answer;
  const elicit = answer as { action: string; content?: unknown };
  if (elicit.action !== 'accept' || request.mode === 'url') return answer;
  const validate = checks.schemas.validator(request.requestedSchema as Record<string, unknown>);
  const content = elicit.content ?? {};
  if (!validate(content)) throw invalidAnswer(key, 'does not match the requested schema', describeSchemaErrors(validate.errors), ['content']);
  return answer;
}

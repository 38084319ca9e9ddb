import { instanceLocation } from '../protocol/distilled-error.js';
import type { ProtocolSchema } from '../protocol/protocol-schema.js';
import { bounded, quoted } from '../util/bounded.js';
import { isError } from '../util/is-error.js';
import { isPlainObject } from '../util/is-plain-object.js';
import type { SchemaProblem } from '../validation/schema-problems.js';
import type { ElicitationSchemaCache } from './elicitation-schema-cache.js';
import { formFieldOffence } from './form-fields.js';
import { INPUT_KINDS, type InputKind } from './input-kinds.js';

/** An input request as it goes to the client: a bare `{method, params}`. */
export interface InputRequest {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** What checking an input request and its answer needs: the protocol schema and the elicitation schema cache. */
export interface InputChecks {
  readonly protocol: ProtocolSchema;
  readonly schemas: ElicitationSchemaCache;
}

/** Explicit input-request keys: short, and safe in any client's logs and maps. */
const KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/** Refuses an explicit key that is not 1–64 characters of `[A-Za-z0-9_.-]` (a fault of the tool that gave it). */
export function checkInputKey(key: unknown): void {
  if (key !== undefined && (typeof key !== 'string' || !KEY.test(key)))
    throw new TypeError(`input-request key ${JSON.stringify(String(key)).slice(0, 80)} must be 1–64 characters of A-Z, a-z, 0-9, "_", "-" and "."`);
}

/**
 * Builds and checks the request a tool asked for, in either era: a copy of its params, which the protocol schema
 * must accept, and for a form elicitation a requested schema that can be built now (so an unbuildable one fails
 * the asking call, not the answer carrying what the user typed). Throws a `TypeError`: the tool's fault.
 */
export function buildInputRequest(kind: InputKind, params: unknown, checks: InputChecks): InputRequest {
  const spec = INPUT_KINDS[kind];
  const copied = JSON.parse(JSON.stringify(params ?? {})) as unknown;
  const request = { method: spec.method, params: copied as Record<string, unknown> };
  const problems = checks.protocol.check(spec.requestDefinition, request);
  if (problems.length) {
    const where = (kind === 'elicitation' && formFieldsOffence(request, checks.protocol)) || located(problems);
    throw new TypeError(`the ${spec.method} request is not a valid ${spec.requestDefinition}: ${where}`);
  }
  if (kind === 'elicitation' && request.params.mode !== 'url') {
    try {
      checks.schemas.validator(request.params.requestedSchema as Record<string, unknown>);
    } catch (thrown) {
      throw new TypeError(`the ${spec.method} requestedSchema cannot be built: ${bounded(isError(thrown) ? thrown.message : thrown, 200)}`, { cause: thrown });
    }
  }
  return request;
}

/** The first three problems, each at its location. */
const located = (problems: readonly SchemaProblem[]): string =>
  problems
    .slice(0, 3)
    .map((p) => `${instanceLocation(p.path) || '/'} ${p.problem}`)
    .join('; ');

/** How many of a refused form's fields its refusal names. */
const FIELDS_LISTED = 3;

/**
 * Why a refused form elicitation is refused, field by field (the protocol schema words a refused form only as
 * matching no shape of its union): each field checked alone, the first three the protocol schema refuses named with
 * why (`requestedSchema field "id" has format "uuid", …`), their count first when there are more, then what the
 * request without them still fails, so one fix is not refused again. Undefined for no form, or no such field.
 */
function formFieldsOffence(request: InputRequest, protocol: ProtocolSchema): string | undefined {
  const schema = request.params.requestedSchema;
  if (!isPlainObject(schema) || !isPlainObject(schema.properties) || request.params.mode === 'url') return undefined;
  const properties = schema.properties;
  const withFields = (names: readonly string[]) => ({
    ...request,
    params: { ...request.params, requestedSchema: { ...schema, properties: Object.fromEntries(names.map((name) => [name, properties[name]])) } },
  });
  const alone = (name: string) => ({ ...request, params: { message: '', requestedSchema: { type: 'object', properties: { [name]: properties[name] } } } });
  const names = Object.keys(properties);
  const offending = names.filter((name) => protocol.check('ElicitRequest', alone(name)).length > 0);
  if (offending.length === 0) return undefined;
  const count = offending.length > FIELDS_LISTED ? ` (${offending.length} fields, the first ${FIELDS_LISTED} here)` : '';
  const listed = offending.slice(0, FIELDS_LISTED).map((name) => `field ${quoted(name, 40)} ${formFieldOffence(properties[name])}`);
  const rest = protocol.check('ElicitRequest', withFields(names.filter((name) => !offending.includes(name))));
  return `requestedSchema${count}: ${listed.join('; ')}${rest.length ? `; and without them, ${located(rest)}` : ''}`;
}

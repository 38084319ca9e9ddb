import { instanceLocation } from '../protocol/distilled-error.js';
import type { ProtocolSchema } from '../protocol/protocol-schema.js';
import { bounded, quoted } from '../util/bounded.js';
import { isError } from '../util/is-error.js';
import { isPlainObject } from '../util/is-plain-object.js';
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
    const fields = kind === 'elicitation' ? offendingFormFields(request, checks.protocol) : [];
    const where = fields.length ? fields : problems.slice(0, 3).map((p) => `${instanceLocation(p.path) || '/'} ${p.problem}`);
    throw new TypeError(`the ${spec.method} request is not a valid ${spec.requestDefinition}: ${where.join('; ')}`);
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

/**
 * The fields of a refused form elicitation that MCP's form field shapes refuse, each alone (the protocol schema
 * words a refused form only as matching no shape of its union), as `requestedSchema field "id" <why>; field …`;
 * the first three. Empty when every field passes alone (the refusal is elsewhere) or the request is no form.
 */
function offendingFormFields(request: InputRequest, protocol: ProtocolSchema): string[] {
  const schema = request.params.requestedSchema;
  const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : undefined;
  if (!properties || request.params.mode === 'url') return [];
  const alone = (name: string) => ({ ...request, params: { message: '', requestedSchema: { type: 'object', properties: { [name]: properties[name] } } } });
  return Object.keys(properties)
    .filter((name) => protocol.check('ElicitRequest', alone(name)).length > 0)
    .slice(0, 3)
    .map((name, i) => `${i === 0 ? 'requestedSchema field' : 'field'} ${quoted(name, 40)} ${formFieldOffence(properties[name])}`);
}

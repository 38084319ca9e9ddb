import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { isPlainObject } from '../util/is-plain-object.js';

/**
 * What an input request of one kind needs from this request's client capabilities: `undefined` when they are
 * declared, otherwise the missing part as a `ClientCapabilities` object (the -32021 `requiredCapabilities`).
 */
type CapabilityNeed = (params: Record<string, unknown>, declared: Readonly<Record<string, unknown>>) => Record<string, unknown> | undefined;

const elicitationNeed: CapabilityNeed = (params, declared) => {
  const elicitation = declared.elicitation;
  if (params.mode === 'url') return isPlainObject(elicitation) && isPlainObject(elicitation.url) ? undefined : { elicitation: { url: {} } };
  if (!isPlainObject(elicitation)) return { elicitation: {} };
  // `elicitation: {}` means form mode only; a client that lists modes must list `form` for a form.
  const listsModes = 'form' in elicitation || 'url' in elicitation;
  return !listsModes || isPlainObject(elicitation.form) ? undefined : { elicitation: { form: {} } };
};

// Names every part a request needs that the client lacks (`tools` and `context` beside `sampling` itself), so the
// client learns all it must declare from one refusal.
const samplingNeed: CapabilityNeed = (params, declared) => {
  const sampling = isPlainObject(declared.sampling) ? declared.sampling : undefined;
  const missing: Record<string, unknown> = {};
  if ((params.tools !== undefined || params.toolChoice !== undefined) && !isPlainObject(sampling?.tools)) missing.tools = {};
  if (params.includeContext !== undefined && params.includeContext !== 'none' && !isPlainObject(sampling?.context)) missing.context = {};
  return sampling && Object.keys(missing).length === 0 ? undefined : { sampling: missing };
};

const rootsNeed: CapabilityNeed = (_params, declared) => (isPlainObject(declared.roots) ? undefined : { roots: {} });

/**
 * What a tool can ask the client for, per kind: the embedded method, the schema definitions of its request and
 * answer, the derived-key prefix, and the client capability it needs (table in docs/mrtr.md).
 * Proven by: test/e2e/mrtr-capabilities.e2e-spec.ts
 */
export const INPUT_KINDS = {
  elicitation: {
    method: 'elicitation/create',
    requestDefinition: 'ElicitRequest',
    answerDefinition: 'ElicitResult',
    keyPrefix: 'elicit',
    need: elicitationNeed,
  },
  sampling: {
    method: 'sampling/createMessage',
    requestDefinition: 'CreateMessageRequest',
    answerDefinition: 'CreateMessageResult',
    keyPrefix: 'sample',
    need: samplingNeed,
  },
  roots: {
    method: 'roots/list',
    requestDefinition: 'ListRootsRequest',
    answerDefinition: 'ListRootsResult',
    keyPrefix: 'roots',
    need: rootsNeed,
  },
} as const;

/** One input kind: `elicitation`, `sampling` or `roots`. */
export type InputKind = keyof typeof INPUT_KINDS;

/**
 * The -32021 refusal (400) of an input request the client cannot take: `what` names the request (its kind, or
 * `URL-mode elicitation`), `why` says how that is known (`, which …`), `required` is the -32021
 * `requiredCapabilities`.
 */
export function missingInputCapability(what: string, why: string, required: Readonly<Record<string, unknown>>): McpMethodError {
  return new McpMethodError(
    JSON_RPC_CODES.missingRequiredClientCapability,
    `Missing required client capability: this request needs ${what}${why}.`,
    { requiredCapabilities: required },
    400,
  );
}

/** How a refusal names an input request: its kind, or `URL-mode elicitation`. */
export function inputRequestName(kind: InputKind, params: Readonly<Record<string, unknown>>): string {
  return kind === 'elicitation' && params.mode === 'url' ? 'URL-mode elicitation' : kind;
}

/** The revision that gave sampling its `tools`, `toolChoice` and the `sampling.context` capability. */
const SAMPLING_TOOLS_AND_CONTEXT = '2025-11-25';

/**
 * The first legacy-era revision that has an input request as asked (sampling without tools and roots: every served
 * one): a legacy client speaking an older revision is never sent it, since it has no method or field to answer with.
 */
export function firstRevisionWith(kind: InputKind, params: Readonly<Record<string, unknown>>): string | undefined {
  if (kind === 'sampling') return params.tools !== undefined || params.toolChoice !== undefined ? SAMPLING_TOOLS_AND_CONTEXT : undefined;
  if (kind !== 'elicitation') return undefined;
  return params.mode === 'url' ? '2025-11-25' : '2025-06-18';
}

/**
 * The params whose needs a legacy client of `revision` is held to: before `sampling.context` existed, a client
 * that declared sampling took any `includeContext` (a plain optional field then), so it asks for nothing more.
 */
export function paramsAtRevision(kind: InputKind, params: Readonly<Record<string, unknown>>, revision: string): Record<string, unknown> {
  if (kind !== 'sampling' || revision >= SAMPLING_TOOLS_AND_CONTEXT || params.includeContext === undefined) return params;
  const { includeContext: _allowed, ...rest } = params;
  return rest;
}

// Shapes of input requests and their answers; at run time the vendored protocol schema checks both.

/**
 * A JSON Schema for one field of an elicitation form: a flat primitive (string, number, boolean, enum). A field typed
 * by an interface (the SDK's `StringSchema`, say) is taken too: `object` admits what has no index signature.
 * @publicApi
 */
export type McpElicitFieldSchema = (Readonly<Record<string, unknown>> | object) & {
  readonly type?: 'string' | 'number' | 'integer' | 'boolean' | 'array';
};

/**
 * An elicitation form: a flat object schema of primitive fields. A form kept in a constant is declared
 * `as const satisfies McpElicitFormSchema`, so its answers stay typed from it. @publicApi
 */
export interface McpElicitFormSchema {
  $schema?: string;
  type: 'object';
  properties: Readonly<Record<string, McpElicitFieldSchema>>;
  required?: readonly string[];
}

/** Form-mode elicitation: a message and a flat form the client shows the user. @publicApi */
export interface McpElicitFormParams {
  mode?: 'form';
  /** What the user is asked, in one or two sentences. Never ask for secrets in form mode. */
  message: string;
  /** The form the client shows. */
  requestedSchema: McpElicitFormSchema;
}

/** URL-mode elicitation: the client sends the user to a URL (needs the client's `elicitation.url`). @publicApi */
export interface McpElicitUrlParams {
  mode: 'url';
  message: string;
  url: string;
}

/** What `ctx.elicit` asks. @publicApi */
export type McpElicitParams = McpElicitFormParams | McpElicitUrlParams;

/** Any value an elicitation form's field can hold. @publicApi */
export type McpElicitValue = string | number | boolean | string[];

/** The values a choice admits: its `enum`, or the `const` of each `oneOf`/`anyOf` option; else any string. */
type Choice<F> = F extends { readonly enum: readonly (infer E extends string)[] }
  ? E
  : F extends { readonly oneOf: readonly { readonly const: infer C extends string }[] }
    ? C
    : F extends { readonly anyOf: readonly { readonly const: infer C extends string }[] }
      ? C
      : string;

/**
 * The value a form field's schema admits: by its `type` (a choice as its literals), or any field value when the
 * type is not known. @publicApi
 */
export type McpElicitFieldValue<F> = F extends { readonly type: 'string' }
  ? Choice<F>
  : F extends { readonly type: 'number' | 'integer' }
    ? number
    : F extends { readonly type: 'boolean' }
      ? boolean
      : F extends { readonly type: 'array'; readonly items: infer I }
        ? Choice<I>[]
        : F extends { readonly type: 'array' }
          ? string[]
          : McpElicitValue;

type RequiredFields<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/**
 * The content of an accepted form, typed from its schema when the schema is written in the call: each field by its
 * `type`, the `required` ones present. (The server checks the answer against the schema before the tool sees it.)
 * @publicApi
 */
export type McpElicitContent<S extends McpElicitFormSchema> = {
  -readonly [K in keyof S['properties'] as K extends RequiredFields<S> ? K : never]: McpElicitFieldValue<S['properties'][K]>;
} & {
  -readonly [K in keyof S['properties'] as K extends RequiredFields<S> ? never : K]?: McpElicitFieldValue<S['properties'][K]>;
};

/**
 * The user's answer; only `accept` carries `content` (checked against the schema; none for a URL-mode request);
 * handle all three. @publicApi
 */
export interface McpElicitResult<C = Record<string, McpElicitValue>> {
  action: 'accept' | 'decline' | 'cancel';
  content?: C;
}

/**
 * What `ctx.elicit` resolves with for params `P`: for a form written in the call that requires a field, an
 * `accept` always carries its typed content (the server refuses one without); otherwise {@link McpElicitResult}.
 * @publicApi
 */
export type McpElicitAnswer<P> = P extends McpElicitFormParams
  ? [RequiredFields<P['requestedSchema']>] extends [never]
    ? McpElicitResult<McpElicitContent<P['requestedSchema']>>
    : { action: 'accept'; content: McpElicitContent<P['requestedSchema']> } | { action: 'decline' | 'cancel'; content?: undefined }
  : McpElicitResult<never>;

/** One message of a sampling request or answer (MCP `SamplingMessage`). @publicApi */
export interface McpSamplingMessage {
  role: 'user' | 'assistant';
  content: Record<string, unknown> | Record<string, unknown>[];
  _meta?: Record<string, unknown>;
}

/** What `ctx.sample` asks the client's model (MCP `CreateMessageRequestParams`). @publicApi */
export interface McpSampleParams {
  messages: readonly McpSamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: Record<string, unknown>;
  /** `thisServer`/`allServers` need the client's `sampling.context`. */
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: readonly string[];
  metadata?: Record<string, unknown>;
  /** Tools the model may use; needs the client's `sampling.tools`. */
  tools?: readonly Record<string, unknown>[];
  /** Needs the client's `sampling.tools`. */
  toolChoice?: Record<string, unknown>;
}

/** The client model's answer (MCP `CreateMessageResult`). @publicApi */
export interface McpSampleResult {
  role: 'user' | 'assistant';
  content: Record<string, unknown> | Record<string, unknown>[];
  model: string;
  stopReason?: string;
  _meta?: Record<string, unknown>;
}

/** A root the client exposes (MCP `Root`). @publicApi */
export interface McpRoot {
  uri: string;
  name?: string;
  _meta?: Record<string, unknown>;
}

/** Options of one input request. @publicApi */
export interface McpInputOptions {
  /** The key in `inputRequests`/`inputResponses` (1–64 of `[A-Za-z0-9_.-]`); else derived from call order. */
  key?: string;
}

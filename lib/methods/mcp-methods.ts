/**
 * Every client-to-server request method of 2026-07-28 (the spec's `ClientRequest` union); a method neither here
 * nor in `REMOVED_METHODS` is unknown. Any method this server does not serve is 404 + -32601.
 * Proven by: test/sweeps/methods.sweep.e2e-spec.ts
 * @publicApi
 */
export const MCP_METHODS = [
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'subscriptions/listen',
] as const;

/** A 2026-07-28 client request method. @publicApi */
export type McpMethod = (typeof MCP_METHODS)[number];

/** The protocol-schema definition each method's whole request is validated against (params: -32602). */
export const REQUEST_DEFINITIONS = {
  'server/discover': 'DiscoverRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'completion/complete': 'CompleteRequest',
  'subscriptions/listen': 'SubscriptionsListenRequest',
} as const satisfies Record<McpMethod, string>;

/** Request methods removed in 2026-07-28; each is answered 404 + -32601 (`removed_method`). @publicApi */
export const REMOVED_METHODS = [
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
] as const;

/**
 * Every client-to-server request method of the legacy era (the 2025-11-25 `ClientRequest` union); on that era a
 * method not here is unknown, and any this server does not serve is 404 + -32601.
 * Proven by: test/sweeps/methods.sweep.e2e-spec.ts
 * @publicApi
 */
export const LEGACY_METHODS = [
  'initialize',
  'ping',
  'logging/setLevel',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
] as const;

/** A legacy-era client request method. @publicApi */
export type LegacyMethod = (typeof LEGACY_METHODS)[number];

/**
 * The legacy-only methods' request definitions, in the legacy schema (`LegacyProtocolSchema`). A method both eras
 * have is checked, on either, against its modern definition: a legacy request is given the legacy envelope
 * first.
 */
export const LEGACY_REQUEST_DEFINITIONS = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'logging/setLevel': 'SetLevelRequest',
  'resources/subscribe': 'SubscribeRequest',
  'resources/unsubscribe': 'UnsubscribeRequest',
} as const satisfies Partial<Record<LegacyMethod, string>>;

/**
 * The methods of the tasks extension (`io.modelcontextprotocol/tasks`), modern era only, served when some tool or
 * action may run as a task. `tasks/result` and `tasks/list`, which the extension removed, are in `REMOVED_METHODS`.
 * Proven by: test/sweeps/methods.sweep.e2e-spec.ts
 * @publicApi
 */
export const TASKS_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;

/** A tasks-extension request method. @publicApi */
export type TasksMethod = (typeof TASKS_METHODS)[number];

/** The tasks methods' request definitions, in the tasks schema (`TasksProtocolSchema`). */
export const TASKS_REQUEST_DEFINITIONS = {
  'tasks/get': 'GetTaskRequest',
  'tasks/update': 'UpdateTaskRequest',
  'tasks/cancel': 'CancelTaskRequest',
} as const satisfies Record<TasksMethod, string>;

/** The methods whose `complete` results carry caching hints (`ttlMs`, `cacheScope`). */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set<McpMethod>([
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
]);

/** Whether `method` is one of `MCP_METHODS`. */
export const isMcpMethod = (method: string): method is McpMethod => (MCP_METHODS as readonly string[]).includes(method);
/** Whether `method` is one of `LEGACY_METHODS`. */
export const isLegacyMethod = (method: string): method is LegacyMethod => (LEGACY_METHODS as readonly string[]).includes(method);
/** Whether `method` is one of `TASKS_METHODS`. */
export const isTasksMethod = (method: string): method is TasksMethod => (TASKS_METHODS as readonly string[]).includes(method);
/** Whether `method` is one of `REMOVED_METHODS`. */
export const isRemovedMethod = (method: string): boolean => (REMOVED_METHODS as readonly string[]).includes(method);

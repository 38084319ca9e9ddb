import type { ControllerOptions, Type } from '@nestjs/common';

import type { McpAuth } from '../contracts/mcp-auth.interface.js';
import type { McpEventBus } from '../contracts/mcp-event-bus.js';
import type { McpTaskStore } from '../contracts/mcp-task-store.js';
import type { RequestStateCodec } from '../contracts/request-state-codec.js';
import type { McpLogLevel } from '../mcp.constants.js';

/** An icon a client may show for the server (MCP `Icon`). @publicApi */
export interface McpIcon {
  /** A URL (https: or data:) of the image. */
  src: string;
  /** The image's MIME type, for example `image/png`. */
  mimeType?: string;
  /** Sizes the image is available in, for example `['48x48']` or `['any']`. */
  sizes?: readonly string[];
  /** The UI theme the icon is made for. */
  theme?: 'light' | 'dark';
}

/**
 * The server's identity (MCP `Implementation`), sent verbatim in every result's `_meta["io.modelcontextprotocol/serverInfo"]`.
 * @publicApi
 */
export interface McpServerInfo {
  /** Programmatic name of the server. */
  name: string;
  /** Version of the server. */
  version: string;
  /** Display name. */
  title?: string;
  /** What the server is for. */
  description?: string;
  /** The server's website. */
  websiteUrl?: string;
  /** Icons a client may display. */
  icons?: readonly McpIcon[];
}

/** Caching hints put on cacheable results (`server/discover`, the list methods and `resources/read`). @publicApi */
export interface McpCacheHints {
  /** How long, in milliseconds, a client may reuse the result; an integer >= 0. */
  ttlMs: number;
  /** `public`: shared caches may reuse it; `private`: reuse within one authorization only. */
  cacheScope: 'public' | 'private';
}

/** RFC 9728 protected-resource metadata, served at the well-known path for the mount. @publicApi */
export interface McpProtectedResourceMetadata {
  /** The resource identifier: the absolute URL of the MCP endpoint. */
  resource: string;
  /** Authorization servers that issue tokens for this resource; at least one. */
  authorization_servers: readonly string[];
  /** Scopes this resource understands. */
  scopes_supported?: readonly string[];
  /** How a bearer token may be sent; MCP uses `header`. */
  bearer_methods_supported?: readonly string[];
  /** Human-readable name of the resource. */
  resource_name?: string;
  /** A page documenting the resource. */
  resource_documentation?: string;
  /** Any other RFC 9728 member. */
  [member: string]: unknown;
}

/**
 * How `requestState` (multi round-trip requests) is sealed; every instance behind a load balancer needs the same
 * secrets. See docs/mrtr.md.
 * @publicApi
 */
export interface McpRequestStateOptions {
  /**
   * HMAC-SHA256 secrets, newest first (the first seals, any opens), each at least 32 random bytes.
   * @default undefined (a random per-process secret, with a warning when the first state is sealed: retries must reach the same process)
   */
  secrets?: readonly string[];
  /** How long a sealed state stays valid, in milliseconds; a later retry is refused (-32602). @default 600000 (10 minutes) */
  ttlMs?: number;
  /**
   * Your own requestState codec (instance or class) in place of the HMAC one; it holds its own keys, so no `secrets`.
   * @default undefined (`HmacRequestStateCodec` with `secrets`)
   */
  codec?: RequestStateCodec | Type<RequestStateCodec>;
}

/**
 * The module options: a closed set, validated once at module init (`McpConfigurationError` naming the option).
 * `path` is given beside them because a route is fixed before asynchronous options resolve.
 * @publicApi
 */
export interface McpModuleOptions {
  /** The server's identity; `name` and `version` are required. */
  serverInfo: McpServerInfo;
  /** How an LLM should use this server, sent in the `server/discover` result. @default undefined (no instructions) */
  instructions?: string;
  /** Origins (compared exactly) a present `Origin` header must match, else 403; see docs/wire-checks.md. @default undefined (loopback-only when reached on loopback) */
  allowedOrigins?: readonly string[];
  /** `Host` values accepted besides the loopback names, for requests that arrive on a loopback address. @default [] */
  allowedHosts?: readonly string[];
  /** The body ceiling in bytes; a larger body is refused with 413 before parsing. @default 4194304 (4 MiB) */
  maxBodyBytes?: number;
  /**
   * The most JSON values a body may hold (containers and the separators between elements count); more is refused
   * with 413 before parsing, since parsing and checking cost by values, not bytes. @default 100000
   */
  maxBodyValues?: number;
  /** Milliseconds without a body byte after which the read is refused with 408 (at most 2147483647). @default 10000 */
  bodyReadTimeoutMs?: number;
  /**
   * Milliseconds a body may take to arrive in all, however steadily its bytes come; past it the read is refused
   * with 408 (at most 2147483647). Bounds a client that drips a byte at a time, whatever the host's own request
   * timeout (Fastify sets none by default). @default 60000
   */
  bodyReadDeadlineMs?: number;
  /**
   * Refuse a POST whose `Content-Type` is not `application/json` (absent, `text/plain`, a form) with 415 before its
   * body is read: a browser sends those from any site without a CORS preflight. See docs/wire-checks.md.
   * @default false (the body is read as JSON whatever its content type)
   */
  requireJsonContentType?: boolean;
  /**
   * Bytes of request bodies still arriving that the mount holds at once (the buffer each read fills). A body whose
   * bytes take them past it makes room: the reads whose last bytes arrived least recently are refused (408 +
   * -32600), never the one counted, so clients sending many large bodies at once cannot exhaust memory together.
   * @default 67108864 (64 MiB)
   */
  maxArrivingBytes?: number;
  /**
   * Milliseconds an answer may wait with no byte of it taken by the client; then the connection is closed (over
   * HTTP/2, the answer's stream is reset) and what waited freed (`mcp:answer:stalled`), so a client that stops
   * reading holds no memory for long (at most 2147483647).
   * @default 30000
   */
  writeStallTimeoutMs?: number;
  /**
   * Bytes of answers waiting for their clients the mount holds at once (what was written and not yet taken: the
   * process holds about as much again of their requests). An answer that would take them past it makes room: the
   * answers whose clients took a byte least recently are cut off (`mcp:answer:stalled`), never the one counted, so
   * clients that stop reading cannot exhaust memory together before `writeStallTimeoutMs` frees what each holds.
   * @default 134217728 (128 MiB)
   */
  maxWaitingBytes?: number;
  /**
   * Bytes of requests whose handlers are running the mount holds at once, each counted by its footprint (its body's
   * bytes, or 80 bytes a JSON value when that is more, and its header lines). A request that would take them past it
   * is refused with 503 + -32603 (`under_way_bytes_limit`; 200 on the legacy era) before its handler runs, so calls
   * to slow tools with large arguments cannot exhaust memory together. Listen streams count under
   * `subscriptions.maxOpenBytes` instead. @default 268435456 (256 MiB)
   */
  maxUnderWayBytes?: number;
  /**
   * Milliseconds the application's shutdown waits for the mount's work under way (calls, bodies arriving, auth
   * decisions) to end; then each call still running is answered `shutting_down` (503 + -32603) and its `ctx.signal`
   * aborted, so a call that never ends cannot hold the shutdown for ever (at most 2147483647). @default 10000
   */
  shutdownGraceMs?: number;
  /** The auth provider (instance or class) that decides per request whether the caller may proceed. @default undefined (every request is let through, with no identity) */
  auth?: McpAuth | Type<McpAuth>;
  /** RFC 9728 metadata, served at the well-known URL of its `resource` (`/.well-known/oauth-protected-resource/<resource path>`) and named in 401 challenges. @default undefined (not served) */
  protectedResourceMetadata?: McpProtectedResourceMetadata;
  /** Caching hints for `server/discover`, the list results and `resources/read`. @default { ttlMs: 0, cacheScope: 'private' } */
  cache?: McpCacheHints;
  /** How `requestState` is sealed for multi round-trip requests (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`). @default { ttlMs: 600000 } (a random per-process secret) */
  requestState?: McpRequestStateOptions;
  /** What the telemetry logger writes through Nest's `Logger`: fault events (`'faults'`), every event (`'all'`), or nothing. @default 'faults' */
  telemetryLogger?: 'faults' | 'all' | false;
  /**
   * Which protocol eras the mount serves: `both` (2026-07-28 requests statelessly, and `initialize`-based legacy
   * clients beside them), `modern` (2026-07-28 only: a legacy `initialize` is refused with 400 naming the
   * supported versions) or `legacy` (the `initialize`-based revisions only). See docs/eras.md.
   * @default 'both'
   */
  eras?: 'both' | 'modern' | 'legacy';
  /**
   * The lowest level of `ctx.log` messages sent to a legacy client. Such a client sets its level with
   * `logging/setLevel`, which a stateless server cannot remember for later requests, so the server picks it here.
   * (A 2026-07-28 client names its level on every request.) See docs/eras.md.
   * @default 'debug' (every level)
   */
  legacyLogLevel?: McpLogLevel;
  /**
   * How many items a page of a list method (`tools/list`, and the resource and prompt lists) holds; a longer list
   * is paginated with opaque, tamper-evident cursors.
   * @default 100
   */
  pageSize?: number;
  /**
   * Bounds on the legacy era's input requests (a tool's `ctx.elicit`, `ctx.sample`, `ctx.listRoots` sent to the
   * client as a server-to-client request, waiting for its answer in this process): how many may wait at once
   * on this mount, how many bytes the waiting calls may hold, and how long each may wait.
   * @default { maxPending: 1000, maxPendingBytes: 268435456, timeoutMs: 600000 }
   */
  legacyInputRequests?: McpLegacyInputRequestOptions;
  /**
   * The event bus (instance or class) the application publishes changes on and the listen streams hear; replace
   * it with a shared one (Redis pub/sub, say) when several instances serve the mount. See docs/subscriptions.md.
   * @default undefined (`InProcessEventBus`: the streams of this process only)
   */
  eventBus?: McpEventBus | Type<McpEventBus>;
  /**
   * Bounds on `subscriptions/listen` streams: how often a keep-alive comment is sent (on every SSE answer, a call's
   * too), how many bytes a stream may hold for a client that does not read before it is dropped (closed, no
   * result), how many may be open at once and hold together, and how long the event bus may take to confirm a
   * stream's subscription. See docs/subscriptions.md.
   * @default { keepAliveMs: 30000, maxBufferedBytes: 262144, maxStreams: 10000, maxOpenBytes: 67108864, subscribeTimeoutMs: 10000 }
   */
  subscriptions?: McpSubscriptionOptions;
  /**
   * The tool, resource and prompt classes this mount serves, when the application has several mounts. Without it a
   * mount serves what the modules importing it provide; a provider no mount lists or reaches is a configuration
   * error. With one mount, every tool, resource and prompt is served. See the README ("Two mounts").
   * @default undefined
   */
  serves?: readonly Type[];
  /**
   * The tasks extension: how long a task is kept (`ttlMs`, from its creation), how often clients are asked to poll,
   * how many tasks the default store holds at once, how many bytes their results may hold together, how long a
   * store call may take, and the store (replace it with a shared one when several instances serve the mount). Used
   * only when some tool or action declares `taskSupport`. See docs/tasks.md.
   * @default { ttlMs: 3600000, pollIntervalMs: 1000, maxTasks: 1000, maxResultBytes: 67108864, maxRunningBytes: 268435456, storeTimeoutMs: 10000 } (store: `InProcessTaskStore`)
   */
  tasks?: McpTasksOptions;
}

/** The tasks extension's settings. @publicApi */
export interface McpTasksOptions {
  /** Milliseconds a task is kept from its creation (its `ttlMs`); then it is dropped, and a handler still running aborted. @default 3600000 */
  ttlMs?: number;
  /** The `pollIntervalMs` clients are asked to keep between two `tasks/get`. @default 1000 */
  pollIntervalMs?: number;
  /** How many tasks the default store holds at once; a call that would create one more is refused. @default 1000 */
  maxTasks?: number;
  /**
   * How many bytes (of JSON) the results of finished tasks may hold together until they expire, per mount and
   * instance; a task whose result would take them over fails instead (-32603, `task_results_full`). @default 67108864 (64 MiB)
   */
  maxResultBytes?: number;
  /**
   * How many bytes the requests of the tasks whose handlers run in this process may hold together, per mount (a
   * running task holds its request, counted by its footprint as for `maxUnderWayBytes`); a call that would take them
   * over is refused (503 + -32603, `task_bytes_limit`) before its task is created. @default 268435456 (256 MiB)
   */
  maxRunningBytes?: number;
  /**
   * Milliseconds a call of the task store may take to settle: a request waiting on one that has not by then is refused
   * (503 + -32603, `task_store_unavailable`). A task the store stores later is marked `failed` there. @default 10000
   */
  storeTimeoutMs?: number;
  /** The task store (instance or class). @default undefined (`InProcessTaskStore`, bounded by `maxTasks`) */
  store?: McpTaskStore | Type<McpTaskStore>;
}

/** Bounds on `subscriptions/listen` streams. @publicApi */
export interface McpSubscriptionOptions {
  /**
   * Milliseconds between two keep-alive comments (`: keep-alive`) on an open SSE answer: a listen stream, and a call's
   * stream once it has sent a notification or a legacy-era input request. Keep it under a proxy's read timeout. @default 30000
   */
  keepAliveMs?: number;
  /** The most bytes one listen stream may hold for a client that does not read; past it the stream is dropped. @default 262144 (256 KiB) */
  maxBufferedBytes?: number;
  /** How many listen streams may be open at once on this mount; one more is refused (503 + -32603). @default 10000 */
  maxStreams?: number;
  /**
   * Milliseconds the event bus's `subscribe` may take to resolve; a listen request whose subscription it has not
   * confirmed by then is refused (503 + -32603, `event_bus_unavailable`), and a subscription that comes later is
   * unsubscribed at once. @default 10000
   */
  subscribeTimeoutMs?: number;
  /**
   * How many bytes the open listen streams may hold together, per mount: each holds its request (counted by its
   * footprint, as for `maxUnderWayBytes`), its acknowledged filter (counted as JSON) and what waits for its reader.
   * A listen request that would take them over is refused (503 + -32603, `listen_bytes_limit`) before its stream
   * opens; a stream whose waiting events would is dropped, as one past `maxBufferedBytes`. @default 67108864 (64 MiB)
   */
  maxOpenBytes?: number;
}

/** Bounds on the legacy era's pending input requests. @publicApi */
export interface McpLegacyInputRequestOptions {
  /** How many input requests may wait for an answer at once on this mount; one more is refused. @default 1000 */
  maxPending?: number;
  /**
   * How many bytes the calls waiting for an answer may hold together on this mount (each holds its request, counted
   * once by its footprint as for `maxUnderWayBytes`, however many of its input requests wait); a call that would take
   * them over is refused. @default 268435456 (256 MiB)
   */
  maxPendingBytes?: number;
  /** How long one may wait for the client's answer, in milliseconds; then the tool's request rejects. @default 600000 */
  timeoutMs?: number;
}

/** The options with every default applied (injected as `MCP_OPTIONS`); what the library reads after module init. @publicApi */
export interface McpResolvedOptions extends Readonly<
  Required<
    Omit<
      McpModuleOptions,
      'instructions' | 'auth' | 'protectedResourceMetadata' | 'allowedOrigins' | 'requestState' | 'legacyInputRequests' | 'eventBus' | 'subscriptions' | 'serves' | 'tasks'
    >
  >
> {
  readonly path: string;
  readonly instructions: string | undefined;
  readonly allowedOrigins: readonly string[] | undefined;
  readonly protectedResourceMetadata: McpProtectedResourceMetadata | undefined;
  readonly auth: McpAuth | Type<McpAuth> | undefined;
  readonly serves: readonly Type[] | undefined;
  readonly requestState: {
    readonly secrets: readonly string[] | undefined;
    readonly ttlMs: number;
    readonly codec: RequestStateCodec | Type<RequestStateCodec> | undefined;
  };
  readonly legacyInputRequests: Readonly<Required<McpLegacyInputRequestOptions>>;
  readonly eventBus: McpEventBus | Type<McpEventBus> | undefined;
  readonly subscriptions: Readonly<Required<McpSubscriptionOptions>>;
  readonly tasks: Readonly<Required<Omit<McpTasksOptions, 'store'>>> & { readonly store: McpTaskStore | Type<McpTaskStore> | undefined };
}

/**
 * A class that builds the module options for `McpModule.forRootAsync({ useClass })` or `{ useExisting }`, the Nest
 * options-factory convention (like `JwtOptionsFactory`). The extras (`path`, `version`, `isGlobal`) are given beside
 * `useClass`, never returned among the options.
 *
 * @example
 * ```ts
 * @Injectable()
 * export class McpConfig implements McpOptionsFactory {
 *   constructor(private readonly config: ConfigService) {}
 *   createMcpOptions(): McpModuleOptions {
 *     return { serverInfo: { name: 'tasks', version: this.config.getOrThrow('VERSION') } };
 *   }
 * }
 * // McpModule.forRootAsync({ path: 'mcp', imports: [ConfigModule], useClass: McpConfig })
 * ```
 * @publicApi
 */
export interface McpOptionsFactory {
  createMcpOptions(): McpModuleOptions | Promise<McpModuleOptions>;
}

/** The extras given beside the options to `forRoot`/`forRootAsync`. @publicApi */
export interface McpModuleExtras {
  /** The mount path (the MCP endpoint), relative to any global prefix of the host. @default 'mcp' */
  path?: string;
  /**
   * The host's API version (`app.enableVersioning`) the mount answers under. By default none: the mount stays at its
   * path whatever the host's `defaultVersion` says, and answers whatever version a request names, as MCP clients
   * name none. A version puts it under that version like a controller's (`/v1/mcp` with URI versioning; with header
   * or media-type versioning, only requests naming it reach the mount). A version is letters, digits, `.`, `_` and `-`;
   * a list names several. @default VERSION_NEUTRAL
   */
  version?: ControllerOptions['version'];
  /**
   * Makes the mount's exports (the chain guards, `McpEventBus`, `McpAuth`, the options) available to every module
   * without importing it; for one mount of the application. @default false
   */
  isGlobal?: boolean;
}

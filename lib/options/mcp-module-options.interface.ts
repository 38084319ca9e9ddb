import type { Type } from '@nestjs/common';
import type { McpAuth } from '../contracts/mcp-auth.interface.js';
import type { RequestStateCodec } from '../contracts/request-state-codec.js';

/** An icon a client may show for the server (MCP `Icon`). @publicApi */
export interface McpIcon {
  /** A URL (https: or data:) of the image. */
  src: string;
  /** The image's MIME type, for example `image/png`. */
  mimeType?: string;
  /** Sizes the image is available in, for example `['48x48']` or `['any']`. */
  sizes?: string[];
  /** The UI theme the icon is made for. */
  theme?: 'light' | 'dark';
}

/**
 * The server's identity (MCP `Implementation`), sent in every result's `_meta["io.modelcontextprotocol/serverInfo"]`.
 * Consumer-authored text: sent exactly as written.
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
  icons?: McpIcon[];
}

/** Caching hints put on cacheable results (`server/discover` and the list methods). @publicApi */
export interface McpCacheHints {
  /** How long, in milliseconds, a client may reuse the result; an integer >= 0. */
  ttlMs: number;
  /** `public`: no caller-specific data, shared caches may reuse it; `private`: reuse within one authorization only. */
  cacheScope: 'public' | 'private';
}

/** RFC 9728 protected-resource metadata, served at the well-known path for the mount. @publicApi */
export interface McpProtectedResourceMetadata {
  /** The resource identifier: the absolute URL of the MCP endpoint. */
  resource: string;
  /** Authorization servers that issue tokens for this resource; at least one. */
  authorization_servers: string[];
  /** Scopes this resource understands. */
  scopes_supported?: string[];
  /** How a bearer token may be sent; MCP uses `header`. */
  bearer_methods_supported?: string[];
  /** Human-readable name of the resource. */
  resource_name?: string;
  /** A page documenting the resource. */
  resource_documentation?: string;
  /** Any other RFC 9728 member. */
  [member: string]: unknown;
}

/**
 * How `requestState` (multi round-trip requests) is sealed. Every instance that may receive a retry must hold
 * the secret that sealed the state it carries: behind a load balancer, give all instances the same secrets.
 * @publicApi
 */
export interface McpRequestStateOptions {
  /**
   * HMAC-SHA256 secrets, newest first: states are sealed with the first and opened with any (rotation: add the
   * new secret in front, drop the old one once `ttlMs` has passed). Each at least 32 bytes (UTF-8) and not
   * repetitive; generate one with `openssl rand -base64 48`. Keep them out of source control.
   * @default undefined (a random per-process secret, with a startup warning: retries must reach the same process)
   */
  secrets?: string[];
  /**
   * How long a sealed state stays valid, in milliseconds: a retry after that is refused (-32602) and the client
   * starts the call again. It bounds how long a user may take to answer an elicitation.
   * @default 600000 (10 minutes)
   */
  ttlMs?: number;
  /**
   * Your own requestState codec (a KMS-backed or encrypting seal) instead of the HMAC one: an instance, or a
   * class resolved from the host's providers (or instantiated with injection). It holds its own keys, so
   * `secrets` is not given with it.
   * @default undefined (`HmacRequestStateCodec` with `secrets`)
   */
  codec?: RequestStateCodec | Type<RequestStateCodec>;
}

/**
 * The module options: a closed set, validated once at module init (an unknown key or a wrong value is a
 * `McpConfigurationError` naming the option). `path` is given beside them to `forRoot`/`forRootAsync`,
 * because a route is fixed before asynchronous options resolve.
 * @publicApi
 */
export interface McpModuleOptions {
  /** The server's identity; `name` and `version` are required. */
  serverInfo: McpServerInfo;
  /**
   * How an LLM should use this server, sent in the `server/discover` result. Consumer-authored text.
   * @default undefined (no instructions)
   */
  instructions?: string;
  /**
   * The origin allowlist: a request whose `Origin` header is present and not listed is refused (403). Entries
   * are origins as browsers send them (`https://app.example.com`), compared exactly. Without a list, a request
   * that arrives on a loopback address is accepted only from loopback origins and Host names (DNS-rebinding
   * protection), and any origin is accepted on other addresses.
   * @default undefined (loopback-only when reached on loopback)
   */
  allowedOrigins?: string[];
  /**
   * The Host allowlist used with DNS-rebinding protection: `Host` header values (host or host:port) accepted
   * besides the loopback names. Only read for requests that arrive on a loopback address.
   * @default []
   */
  allowedHosts?: string[];
  /**
   * The body ceiling in bytes: a larger body is refused with 413 before it is parsed.
   * @default 4194304 (4 MiB)
   */
  maxBodyBytes?: number;
  /**
   * The body read timeout in milliseconds: a body read in which no byte arrives for this long is a stalled
   * read, refused with 408. At most 2147483647 (what a Node timer holds).
   * @default 10000
   */
  bodyReadTimeoutMs?: number;
  /**
   * The auth provider: decides per request whether the caller may proceed (see `McpAuth`). An instance, or a
   * class resolved from the host's providers (or instantiated with injection when not registered).
   * @default undefined (every request is let through, with no identity)
   */
  auth?: McpAuth | Type<McpAuth>;
  /**
   * RFC 9728 protected-resource metadata; when set it is served (GET) at
   * `/.well-known/oauth-protected-resource/<mount path>` and named in 401 challenges.
   * @default undefined (not served)
   */
  protectedResourceMetadata?: McpProtectedResourceMetadata;
  /**
   * Caching hints for `server/discover` and the list results.
   * @default { ttlMs: 0, cacheScope: 'private' }
   */
  cache?: McpCacheHints;
  /**
   * How `requestState` is sealed for multi round-trip requests (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`).
   * @default { ttlMs: 600000 } (a random per-process secret)
   */
  requestState?: McpRequestStateOptions;
  /**
   * What the telemetry logger writes through Nest's `Logger`: `'faults'` (method, auth and contained tool
   * faults), `'all'` (every telemetry event, the rest at debug level), or `false` (nothing).
   * @default 'faults'
   */
  telemetryLogger?: 'faults' | 'all' | false;
}

/** The options with every default applied (injected as `MCP_OPTIONS`); what the library reads after module init. @publicApi */
export interface McpResolvedOptions
  extends Readonly<Required<Omit<McpModuleOptions, 'instructions' | 'auth' | 'protectedResourceMetadata' | 'allowedOrigins' | 'requestState'>>> {
  readonly path: string;
  readonly instructions: string | undefined;
  readonly allowedOrigins: readonly string[] | undefined;
  readonly protectedResourceMetadata: McpProtectedResourceMetadata | undefined;
  readonly auth: McpAuth | Type<McpAuth> | undefined;
  readonly requestState: {
    readonly secrets: readonly string[] | undefined;
    readonly ttlMs: number;
    readonly codec: RequestStateCodec | Type<RequestStateCodec> | undefined;
  };
}

/** The extras given beside the options to `forRoot`/`forRootAsync`. @publicApi */
export interface McpModuleExtras {
  /**
   * The mount path (the MCP endpoint), relative to any global prefix of the host.
   * @default 'mcp'
   */
  path?: string;
}

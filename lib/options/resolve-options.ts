import { VERSION_NEUTRAL, type ControllerOptions } from '@nestjs/common';

import { McpConfigurationError, got, nearMissHint } from '../errors/mcp-configuration.error.js';
import type {
  McpLegacyInputRequestOptions,
  McpModuleExtras,
  McpModuleOptions,
  McpResolvedOptions,
  McpSubscriptionOptions,
  McpTasksOptions,
} from './mcp-module-options.interface.js';
import { MODULE_OPTION_NAMES, MODULE_OPTION_RULES, ROUTE_SYNTAX } from './module-option-rules.js';

/** Default body ceiling: 4 MiB. */
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Default body read timeout: 10 s. */
const DEFAULT_BODY_READ_TIMEOUT_MS = 10_000;
/** Default body read deadline: 60 s. */
const DEFAULT_BODY_READ_DEADLINE_MS = 60_000;
/** The default of `maxBodyValues`. */
const DEFAULT_MAX_BODY_VALUES = 100_000;
/** The default of `writeStallTimeoutMs`. */
const DEFAULT_WRITE_STALL_TIMEOUT_MS = 30_000;
/** The default of `maxArrivingBytes`: 64 MiB. */
const DEFAULT_MAX_ARRIVING_BYTES = 64 * 1024 * 1024;
/** The default of `maxWaitingBytes`: 128 MiB. */
const DEFAULT_MAX_WAITING_BYTES = 128 * 1024 * 1024;
/** The default of `maxUnderWayBytes`: 256 MiB. */
const DEFAULT_MAX_UNDER_WAY_BYTES = 256 * 1024 * 1024;
/** The default of `shutdownGraceMs`. */
const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** Default bounds on the legacy era's pending input requests. */
const DEFAULT_LEGACY_INPUT_REQUESTS = { maxPending: 1000, maxPendingBytes: 256 * 1024 * 1024, timeoutMs: 600_000 } as const;

/**
 * Default bounds on listen streams: a keep-alive every 30 s, at most 256 KiB held for a client that does not read,
 * at most 10,000 open at once (each holds a connection for as long as its client stays).
 */
const DEFAULT_SUBSCRIPTIONS = { keepAliveMs: 30_000, maxBufferedBytes: 256 * 1024, maxStreams: 10_000, maxOpenBytes: 64 * 1024 * 1024, subscribeTimeoutMs: 10_000 } as const;

/** Default task settings: kept an hour, polled every second, at most 1000 held, their results 64 MiB together. */
const DEFAULT_TASKS = {
  ttlMs: 3_600_000,
  pollIntervalMs: 1000,
  maxTasks: 1000,
  maxResultBytes: 64 * 1024 * 1024,
  maxRunningBytes: 256 * 1024 * 1024,
  storeTimeoutMs: 10_000,
} as const;

/** Default lifetime of a sealed `requestState`: 10 minutes. */
const DEFAULT_REQUEST_STATE_TTL_MS = 600_000;

/** Normalises a mount path: no leading or trailing slash, `''` for the root. */
export function normalizeMountPath(path: unknown): string {
  if (typeof path !== 'string') throw new McpConfigurationError('option "path"', `must be a string${got(path)}`);
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  if (/[#\s]/.test(trimmed) || ROUTE_SYNTAX.test(trimmed)) throw new McpConfigurationError('option "path"', `must be a plain path, got ${JSON.stringify(path)}`);
  return trimmed;
}

/**
 * Checks the mount's `version` extra: `VERSION_NEUTRAL` when absent; else `VERSION_NEUTRAL`, a version (letters,
 * digits, `.`, `_`, `-`), or a non-empty list of those, each once.
 */
export function mountVersion(version: unknown): NonNullable<ControllerOptions['version']> {
  if (version === undefined) return VERSION_NEUTRAL;
  const oneVersion = (value: unknown) => value === VERSION_NEUTRAL || (typeof value === 'string' && /^[\w.-]+$/.test(value));
  const list = Array.isArray(version) ? (version as unknown[]) : undefined;
  if (list ? list.length > 0 && list.every(oneVersion) && new Set(list).size === list.length : oneVersion(version))
    return version as NonNullable<ControllerOptions['version']>;
  throw new McpConfigurationError(
    'option "version"',
    `must be VERSION_NEUTRAL, a version (letters, digits, ".", "_" and "-", as in "1" or "2024-06"), or a non-empty list of those without repeats${got(version)}`,
  );
}

/** The extras (`McpModuleExtras`) an options factory may not return, each with why it comes first. */
export const EXTRAS_BESIDE = {
  path: 'a route is fixed before asynchronous options resolve',
  version: "a route's version is fixed before asynchronous options resolve",
  isGlobal: 'a module is made global as it is defined, before asynchronous options resolve',
} as const satisfies Record<keyof McpModuleExtras, string>;

/**
 * Validates the module options (the closed key set is checked here only) and applies the defaults, once, at module init.
 * @throws {McpConfigurationError} naming the option on an unknown key or a wrong value; every such option, when
 *   there are several
 */
export function resolveOptions(options: unknown, path: string): McpResolvedOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new McpConfigurationError('McpModule options', `must be an object${got(options)}`);
  const given = options as Record<string, unknown>;
  // Every problem at once: an application converted from another library may hold several.
  const problems: McpConfigurationError[] = [];
  const refuse = (key: string, offence: string): number => problems.push(new McpConfigurationError(`option "${key}"`, offence));
  for (const [extra, why] of Object.entries(EXTRAS_BESIDE))
    if (Object.hasOwn(given, extra)) refuse(extra, `is given beside the options, not inside them: McpModule.forRootAsync({ ${extra}, useFactory }) (${why})`);
  for (const key of Object.keys(given))
    if (!(MODULE_OPTION_NAMES as string[]).includes(key) && !Object.hasOwn(EXTRAS_BESIDE, key))
      refuse(key, `is not a module option${nearMissHint(key, MODULE_OPTION_NAMES)}; known options: ${MODULE_OPTION_NAMES.join(', ')}`);
  if (given.serverInfo === undefined) refuse('serverInfo', 'is required');
  for (const key of MODULE_OPTION_NAMES) {
    const value = given[key];
    if (value === undefined) continue;
    const problem = MODULE_OPTION_RULES[key](value);
    // A rule refusing the whole value names it here; one refusing a part names that part itself.
    if (problem) refuse(key, problem.startsWith('must ') ? `${problem}${got(value)}` : problem);
  }
  if (given.protectedResourceMetadata !== undefined && given.auth === undefined)
    refuse('protectedResourceMetadata', 'is served only beside an auth provider, whose 401 names it to the client; give the auth option too, or drop this one');
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) throw new McpConfigurationError('McpModule options', `have ${problems.length} problems: ${problems.map((problem) => problem.message).join('; ')}`);
  const o = given as unknown as McpModuleOptions;
  return Object.freeze({
    path: normalizeMountPath(path),
    serverInfo: Object.freeze({ ...o.serverInfo }),
    instructions: o.instructions,
    allowedOrigins: o.allowedOrigins ? Object.freeze([...o.allowedOrigins]) : undefined,
    allowedHosts: Object.freeze([...(o.allowedHosts ?? [])]) as string[],
    maxBodyBytes: o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxBodyValues: o.maxBodyValues ?? DEFAULT_MAX_BODY_VALUES,
    requireJsonContentType: o.requireJsonContentType ?? false,
    bodyReadTimeoutMs: o.bodyReadTimeoutMs ?? DEFAULT_BODY_READ_TIMEOUT_MS,
    bodyReadDeadlineMs: o.bodyReadDeadlineMs ?? DEFAULT_BODY_READ_DEADLINE_MS,
    maxArrivingBytes: o.maxArrivingBytes ?? DEFAULT_MAX_ARRIVING_BYTES,
    writeStallTimeoutMs: o.writeStallTimeoutMs ?? DEFAULT_WRITE_STALL_TIMEOUT_MS,
    maxWaitingBytes: o.maxWaitingBytes ?? DEFAULT_MAX_WAITING_BYTES,
    maxUnderWayBytes: o.maxUnderWayBytes ?? DEFAULT_MAX_UNDER_WAY_BYTES,
    shutdownGraceMs: o.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
    auth: o.auth,
    protectedResourceMetadata: o.protectedResourceMetadata,
    cache: Object.freeze({ ...(o.cache ?? { ttlMs: 0, cacheScope: 'private' }) }),
    requestState: Object.freeze({
      secrets: o.requestState?.secrets ? Object.freeze([...o.requestState.secrets]) : undefined,
      ttlMs: o.requestState?.ttlMs ?? DEFAULT_REQUEST_STATE_TTL_MS,
      codec: o.requestState?.codec,
    }),
    telemetryLogger: o.telemetryLogger ?? 'faults',
    eras: o.eras ?? 'both',
    legacyLogLevel: o.legacyLogLevel ?? 'debug',
    pageSize: o.pageSize ?? 100,
    legacyInputRequests: definedOver<Required<McpLegacyInputRequestOptions>>(DEFAULT_LEGACY_INPUT_REQUESTS, o.legacyInputRequests),
    eventBus: o.eventBus,
    subscriptions: definedOver<Required<McpSubscriptionOptions>>(DEFAULT_SUBSCRIPTIONS, o.subscriptions),
    serves: o.serves ? Object.freeze([...o.serves]) : undefined,
    tasks: Object.freeze({ ...definedOver<Required<Omit<McpTasksOptions, 'store'>>>(DEFAULT_TASKS, o.tasks), store: o.tasks?.store }),
  });
}

/**
 * A group option's defaults with each key the caller gave a value for replaced: a key given as `undefined` keeps
 * its default, as an absent one does (a spread would copy the `undefined` over it).
 */
function definedOver<T extends object>(defaults: T, given: Partial<T> | undefined): Readonly<T> {
  const resolved = { ...defaults };
  if (given) for (const key of Object.keys(defaults) as (keyof T)[]) if (given[key] !== undefined) resolved[key] = given[key];
  return Object.freeze(resolved);
}

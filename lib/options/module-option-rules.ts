import { got, nearMissHint } from '../errors/mcp-configuration.error.js';
import { LOG_LEVELS } from '../mcp.constants.js';
import { isPlainObject } from '../util/is-plain-object.js';
import type { McpModuleOptions } from './mcp-module-options.interface.js';

/** A rule returns undefined for a valid value, or a sentence saying what is wrong with it. */
type OptionRule = (value: unknown) => string | undefined;

/**
 * What the host's routers read as route syntax in a path (Express's path-to-regexp 8 refuses the reserved `()[]+!?`
 * at startup; `:` and `*` make a parameter or a wildcard, `{}` a group, `\\` an escape): a path named after an
 * option must hold none.
 */
export const ROUTE_SYNTAX = /[:*?(){}[\]+!\\]/;

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((e) => typeof e === 'string');
const isUrl = (v: unknown): boolean => {
  if (typeof v !== 'string') return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
};

/** A consumer-supplied seam: a class, or an object with the given methods. */
const isProvided = (v: unknown, methods: readonly string[]): boolean => typeof v === 'function' || (isPlainObject(v) && methods.every((m) => typeof v[m] === 'function'));

function closedObject(value: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  const extra = Object.keys(value).filter((k) => !allowed.includes(k));
  return extra.length ? `has unknown key(s) ${extra.map((k) => `${JSON.stringify(k)}${nearMissHint(k, allowed)}`).join(', ')}; allowed: ${allowed.join(', ')}` : undefined;
}

function iconProblem(icon: unknown, index: number): string | undefined {
  if (!isPlainObject(icon)) return `icons[${index}] must be an object${got(icon)}`;
  const closed = closedObject(icon, ['src', 'mimeType', 'sizes', 'theme']);
  if (closed) return `icons[${index}] ${closed}`;
  if (!isUrl(icon.src)) return `icons[${index}].src must be a URL${got(icon.src)}`;
  if (icon.mimeType !== undefined && typeof icon.mimeType !== 'string') return `icons[${index}].mimeType must be a string${got(icon.mimeType)}`;
  if (icon.sizes !== undefined && !isStringArray(icon.sizes)) return `icons[${index}].sizes must be an array of strings${got(icon.sizes)}`;
  if (icon.theme !== undefined && icon.theme !== 'light' && icon.theme !== 'dark') return `icons[${index}].theme must be "light" or "dark"${got(icon.theme)}`;
  return undefined;
}

const positiveInteger =
  (what?: string): OptionRule =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) > 0 ? undefined : `must be a positive integer${what ? ` (${what})` : ''}`;

/** The longest delay a Node timer holds; a longer one is run after 1 ms (with a TimeoutOverflowWarning). */
const TIMER_MAX_MS = 2 ** 31 - 1;

const timerDelay: OptionRule = (v) =>
  Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= TIMER_MAX_MS ? undefined : `must be a positive integer of at most ${TIMER_MAX_MS} (milliseconds)`;

/**
 * A group option: an object of `fields`, every one optional, each checked by its rule when given (in that order);
 * a refusal names the field and what it got.
 */
function group(fields: Readonly<Record<string, OptionRule>>): OptionRule {
  const keys = Object.keys(fields);
  return (v) => {
    if (!isPlainObject(v)) return `must be an object { ${keys.map((key) => `${key}?`).join(', ')} }`;
    const closed = closedObject(v, keys);
    if (closed) return closed;
    for (const key of keys) {
      const problem = v[key] === undefined ? undefined : fields[key]!(v[key]);
      if (problem) return `${key} ${problem}${got(v[key])}`;
    }
    return undefined;
  };
}

/** The shortest `requestState` secret, in bytes (UTF-8): an HMAC-SHA256 key should carry 256 bits. */
const REQUEST_STATE_SECRET_MIN_BYTES = 32;

/** The most `requestState.secrets` a mount takes: a state that opens under none is checked against every one. */
const REQUEST_STATE_SECRETS_MAX = 16;

function secretProblem(secret: unknown, index: number): string | undefined {
  if (typeof secret !== 'string') return `secrets[${index}] must be a string${got(secret)}`;
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < REQUEST_STATE_SECRET_MIN_BYTES)
    return `secrets[${index}] is ${bytes} bytes; a secret must be at least ${REQUEST_STATE_SECRET_MIN_BYTES} bytes of random data (openssl rand -base64 48)`;
  if (new Set(secret).size < 8) return `secrets[${index}] is repetitive; a secret must be random data (openssl rand -base64 48)`;
  return undefined;
}

/**
 * What a valid value of each module option is; `satisfies` makes an option without a rule fail `tsc`.
 * Proven by: test/sweeps/module-options.sweep.spec.ts (one cell per option).
 */
export const MODULE_OPTION_RULES = {
  serverInfo: (v) => {
    if (!isPlainObject(v)) return 'must be an object with name and version';
    const closed = closedObject(v, ['name', 'version', 'title', 'description', 'websiteUrl', 'icons']);
    if (closed) return closed;
    if (typeof v.name !== 'string' || v.name === '') return `name must be a non-empty string${got(v.name)}`;
    if (typeof v.version !== 'string' || v.version === '') return `version must be a non-empty string${got(v.version)}`;
    for (const key of ['title', 'description'] as const) if (v[key] !== undefined && typeof v[key] !== 'string') return `${key} must be a string${got(v[key])}`;
    if (v.websiteUrl !== undefined && !isUrl(v.websiteUrl)) return `websiteUrl must be a URL${got(v.websiteUrl)}`;
    if (v.icons !== undefined) {
      if (!Array.isArray(v.icons)) return `icons must be an array${got(v.icons)}`;
      for (const [i, icon] of v.icons.entries()) {
        const problem = iconProblem(icon, i);
        if (problem) return problem;
      }
    }
    return undefined;
  },
  instructions: (v) => (typeof v === 'string' ? undefined : 'must be a string'),
  allowedOrigins: (v) => {
    if (!isStringArray(v)) return 'must be an array of origin strings';
    const bad = v.find((o) => o !== 'null' && (!isUrl(o) || new URL(o).origin !== o));
    return bad === undefined ? undefined : `entry ${JSON.stringify(bad)} is not an origin (scheme://host[:port], no path)`;
  },
  allowedHosts: (v) => {
    if (!isStringArray(v)) return 'must be an array of Host header values';
    const index = v.findIndex((host) => !/^[^\s/?#@]+$/.test(host));
    return index < 0 ? undefined : `allowedHosts[${index}] must be a Host header value (a name, with :port or not), not a URL${got(v[index])}`;
  },
  maxBodyBytes: positiveInteger('bytes'),
  maxBodyValues: positiveInteger('JSON values'),
  requireJsonContentType: (v) => (typeof v === 'boolean' ? undefined : 'must be true or false'),
  bodyReadTimeoutMs: timerDelay,
  bodyReadDeadlineMs: timerDelay,
  maxArrivingBytes: positiveInteger('bytes'),
  writeStallTimeoutMs: timerDelay,
  maxWaitingBytes: positiveInteger('bytes'),
  maxUnderWayBytes: positiveInteger('bytes'),
  shutdownGraceMs: timerDelay,
  auth: (v) => (isProvided(v, ['authenticate']) ? undefined : 'must be an McpAuth instance (with an authenticate method) or a class implementing McpAuth'),
  protectedResourceMetadata: (v) => {
    if (!isPlainObject(v)) return 'must be an object';
    if (!isUrl(v.resource)) return `resource must be the absolute URL of the MCP endpoint${got(v.resource)}`;
    // Its path becomes a route of the host's router, which would read these as route syntax (a parameter, a wildcard).
    if (ROUTE_SYNTAX.test(new URL(v.resource as string).pathname))
      return `resource must have a plain path (its metadata is served at a route named after it, where ":", "*", "(" and the like are route syntax)${got(v.resource)}`;
    if (!isStringArray(v.authorization_servers) || v.authorization_servers.length === 0)
      return `authorization_servers must list at least one authorization server URL${got(v.authorization_servers)}`;
    if (!v.authorization_servers.every(isUrl)) return `authorization_servers entries must be URLs${got(v.authorization_servers.find((s) => !isUrl(s)))}`;
    return undefined;
  },
  cache: (v) => {
    if (!isPlainObject(v)) return 'must be an object { ttlMs, cacheScope }';
    const closed = closedObject(v, ['ttlMs', 'cacheScope']);
    if (closed) return closed;
    if (!Number.isSafeInteger(v.ttlMs) || (v.ttlMs as number) < 0) return `ttlMs must be an integer >= 0${got(v.ttlMs)}`;
    if (v.cacheScope !== 'public' && v.cacheScope !== 'private') return `cacheScope must be "public" or "private"${got(v.cacheScope)}`;
    return undefined;
  },
  requestState: (v) => {
    if (!isPlainObject(v)) return 'must be an object { secrets?, ttlMs?, codec? }';
    const closed = closedObject(v, ['secrets', 'ttlMs', 'codec']);
    if (closed) return closed;
    if (v.codec !== undefined) {
      if (!isProvided(v.codec, ['seal', 'open'])) return `codec must be a RequestStateCodec instance (with seal and open methods) or a class implementing it${got(v.codec)}`;
      if (v.secrets !== undefined) return "secrets are the default codec's; a custom codec holds its own keys, so give one or the other";
    }
    if (v.secrets !== undefined) {
      if (!Array.isArray(v.secrets) || v.secrets.length === 0) return `secrets must be a non-empty array of strings (newest first)${got(v.secrets)}`;
      if (v.secrets.length > REQUEST_STATE_SECRETS_MAX)
        return `secrets holds ${v.secrets.length}; at most ${REQUEST_STATE_SECRETS_MAX} (the current one and those still rotating out), since a forged state is checked against each`;
      for (const [i, secret] of v.secrets.entries()) {
        const problem = secretProblem(secret, i);
        if (problem) return problem;
      }
    }
    if (v.ttlMs !== undefined && (!Number.isSafeInteger(v.ttlMs) || (v.ttlMs as number) <= 0)) return `ttlMs must be a positive integer (milliseconds)${got(v.ttlMs)}`;
    return undefined;
  },
  pageSize: (v) => (Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= 10_000 ? undefined : 'must be an integer from 1 to 10000 (items per page)'),
  eras: (v) => (v === 'both' || v === 'modern' || v === 'legacy' ? undefined : 'must be "both", "modern" or "legacy"'),
  legacyInputRequests: group({ maxPending: positiveInteger(), maxPendingBytes: positiveInteger(), timeoutMs: timerDelay }),
  legacyLogLevel: (v) => ((LOG_LEVELS as readonly unknown[]).includes(v) ? undefined : `must be one of ${LOG_LEVELS.map((level) => `"${level}"`).join(', ')}`),
  telemetryLogger: (v) => (v === 'faults' || v === 'all' || v === false ? undefined : 'must be "faults", "all" or false'),
  eventBus: (v) =>
    isProvided(v, ['publish', 'subscribe']) ? undefined : 'must be an McpEventBus instance (with publish and subscribe methods) or a class implementing McpEventBus',
  subscriptions: group({
    keepAliveMs: timerDelay,
    maxBufferedBytes: positiveInteger('bytes'),
    maxStreams: positiveInteger(),
    maxOpenBytes: positiveInteger('bytes'),
    subscribeTimeoutMs: timerDelay,
  }),
  serves: (v) => {
    if (!Array.isArray(v)) return 'must be an array of the tool, resource and prompt classes this mount serves';
    const index = v.findIndex((item) => typeof item !== 'function');
    return index < 0 ? undefined : `serves[${index}] must be a class (a tool, resource or prompt provider)${got(v[index])}`;
  },
  tasks: group({
    ttlMs: timerDelay,
    pollIntervalMs: timerDelay,
    maxTasks: positiveInteger(),
    maxResultBytes: positiveInteger(),
    maxRunningBytes: positiveInteger(),
    storeTimeoutMs: timerDelay,
    store: (v) =>
      isProvided(v, ['create', 'get', 'update']) ? undefined : 'must be an McpTaskStore instance (with create, get and update methods) or a class implementing McpTaskStore',
  }),
} satisfies Record<keyof McpModuleOptions, OptionRule>;

/** The closed set of module option names. */
export const MODULE_OPTION_NAMES = Object.keys(MODULE_OPTION_RULES) as (keyof McpModuleOptions)[];

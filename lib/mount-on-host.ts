import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost } from '@nestjs/core';

import { requestRecord } from './contracts/request-record.js';
import { McpConfigurationError } from './errors/mcp-configuration.error.js';
import { MCP_MOUNT_ROUTE } from './mount-route.js';
import type { McpResolvedOptions } from './options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from './options/mcp-options.tokens.js';
import { fallthrough } from './response/fallthrough.js';
import { MountClosing } from './response/mount-closing.js';
import { answerUnanswered } from './response/unanswered.js';
import type { UnattachedBounds } from './response/unattached-answer.js';
import { WaitingAnswers } from './response/waiting-answers.js';

/** Express's body parsers, by the names their middleware functions carry (Nest's own and `express.json()` alike). */
const EXPRESS_PARSERS = new Set(['jsonParser', 'urlencodedParser', 'textParser', 'rawParser']);

/** The headers that tell Fastify a request has a body to parse. */
const BODY_HEADERS = ['content-type', 'content-length', 'transfer-encoding'] as const;

const HIDDEN = Symbol.for('nest-mcp.hidden-body-headers');
type WithHidden = IncomingMessage & { [HIDDEN]?: Partial<Record<(typeof BODY_HEADERS)[number], string | string[]>> };

/** What one HTTP framework instance has been given (one app may hold several mounts; each step happens once). */
const DONE = Symbol.for('nest-mcp.mount-on-host');
interface HostState {
  routeHook?: true;
  finished?: true;
  /** Fastify: the full path of each mount, as its routes were registered, and what its events name it. */
  readonly mountPaths: Map<string, string>;
}

type Handle = (req: IncomingMessage, res: unknown, next: (err?: unknown) => void) => unknown;
interface ExpressLayer {
  handle?: Handle;
  route?: { path?: unknown; methods?: Record<string, boolean>; stack?: { handle?: unknown }[] };
  match(path: string): boolean;
}
interface FastifyRouteOptions {
  url: string;
  config?: Record<string, unknown>;
  preParsing?: unknown;
  preValidation?: unknown;
  handler?: FastifyHandler;
}
type FastifyHandler = (this: unknown, request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack?: () => void; then?: unknown }) => unknown;
interface FastifyLike {
  addHook(name: 'onRoute', hook: (options: FastifyRouteOptions) => void): void;
  all(path: string, options: object, handler: (request: unknown, reply: unknown) => void): void;
}

/**
 * Finishes a mount on the host's HTTP framework, Express or Fastify, so it behaves alike on both:
 * - the mount reads its own body whatever the host's body parser setting (its ceiling, read timeout and JSON-RPC
 *   answers hold): on Express each body parser the host registered skips a request for the mount or below it; on
 *   Fastify the mount's routes hide the body headers while Fastify picks a content-type parser, so none runs, and
 *   give them back before the route's guards;
 * - a path below a mount reaches the fallthrough (404), registered once the mount's full path (global prefix,
 *   versioning, module path) is known;
 * - where the host has global interceptors, a request to the mount that the host's route handler settled without
 *   the mount taking it over (an interceptor answered in its stead) is answered (`answerUnanswered`), never left
 *   hanging.
 * The host's other routes are untouched.
 */
@Injectable()
export class MountOnHost implements OnModuleInit {
  /**
   * What bounds the answers made here (the fallthrough's, an unanswered request's). The mounts of one application shut
   * down together: the first mount's state (and its write stall bound) answers for all.
   */
  private readonly bounds: UnattachedBounds;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly shutdown: MountClosing,
    private readonly config: ApplicationConfig,
    @Inject(MCP_OPTIONS) options: Pick<McpResolvedOptions, 'writeStallTimeoutMs'>,
    waiting: WaitingAnswers,
  ) {
    this.bounds = { shutdown, stallMs: options.writeStallTimeoutMs, waiting };
  }

  /**
   * Whether the host has global interceptors, the only ones that reach the mount's routes (its controller declares
   * none): without one, nothing can answer in the mount's stead, and its routes are left unwrapped. Nest fixes them
   * before it registers the routes.
   */
  private intercepted(): boolean {
    return this.config.getGlobalInterceptors().length > 0 || this.config.getGlobalRequestInterceptors().length > 0;
  }

  /** Before Nest registers the routes (`McpModule.configure`): on Fastify, watches for the mounts' routes. */
  beforeRoutes(): void {
    const host = this.host();
    if (!host || host.type !== 'fastify' || host.state.routeHook) return;
    host.state.routeHook = true;
    (host.instance as unknown as FastifyLike).addHook('onRoute', (options) => {
      const mount = options.config?.[MCP_MOUNT_ROUTE];
      if (typeof mount !== 'string') return;
      host.state.mountPaths.set(options.url, mount);
      const handler = options.handler;
      const bounds = this.bounds;
      if (typeof handler === 'function' && this.intercepted())
        options.handler = function (this: unknown, request, reply) {
          watchSettled(reply, () => {
            if (requestRecord(request.raw).taken) return;
            reply.hijack?.();
            answerUnanswered(request.raw, reply.raw, mount, bounds);
          });
          return handler.call(this, request, reply);
        };
      options.preParsing = [...hooks(options.preParsing), hideBodyHeaders];
      options.preValidation = [restoreBodyHeaders, ...hooks(options.preValidation)];
    });
  }

  /**
   * Once the routes are registered: the parser bypass (Express), the routes below the mounts, and the server's
   * sessions and connections watched for the shutdown (`MountClosing.watchServer`).
   */
  onModuleInit(): void {
    const host = this.host();
    if (!host || host.state.finished) return;
    host.state.finished = true;
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server | undefined;
    if (server) this.shutdown.watchServer(server);
    const below = belowMount(this.bounds);
    if (host.type === 'express') finishOnExpress(host.instance, below, this.intercepted() ? this.bounds : undefined);
    else if (host.type === 'fastify') {
      for (const [path, mount] of host.state.mountPaths)
        if (!atRoot(path))
          (host.instance as unknown as FastifyLike).all(`${path.replace(/\/$/, '')}/*`, { preParsing: [hideBodyHeaders], preValidation: [restoreBodyHeaders] }, below(mount));
      if (server) undecodableBelowMounts(server, host.state.mountPaths, below);
    }
  }

  private host(): { type: string; instance: Record<PropertyKey, unknown>; state: HostState } | undefined {
    const adapter = this.adapterHost.httpAdapter;
    const instance = adapter?.getInstance() as Record<PropertyKey, unknown> | undefined;
    if (!adapter || !instance) return undefined;
    const state = (instance[DONE] ??= { mountPaths: new Map<string, string>() }) as HostState;
    return { type: adapter.getType(), instance, state };
  }
}

/** Whether a mount is at the root of the host: every path is below it, so paths below it stay the host's to answer. */
const atRoot = (path: string): boolean => path.replace(/\/$/, '') === '';

/** The answer to a path below the mount named `mount`, within the fallthrough's `bounds`. */
type BelowMount = (mount: string) => (req: unknown, res: unknown) => void;
const belowMount =
  (bounds: UnattachedBounds): BelowMount =>
  (mount) =>
  (req, res) =>
    fallthrough(req, res, 404, mount, bounds);

/**
 * Finishes the mounts on Express: the paths below them (`below`), the host's parsers skipping them, and, where the host
 * has global interceptors, an answer to what a mount's route left unanswered, within `unanswered`.
 */
function finishOnExpress(app: Record<PropertyKey, unknown>, below: BelowMount, unanswered: UnattachedBounds | undefined): void {
  const router = app.router as { stack?: ExpressLayer[]; caseSensitive?: unknown; strict?: unknown } | undefined;
  const stack = router?.stack;
  if (!Array.isArray(stack)) return;
  // Each mount route's layer, with the name of its mount (its handler's metadata).
  const mountOf = new Map<ExpressLayer, string>();
  for (const layer of stack)
    for (const entry of layer.route?.stack ?? []) {
      const mount: unknown = typeof entry.handle === 'function' ? Reflect.getMetadata(MCP_MOUNT_ROUTE, entry.handle) : undefined;
      if (typeof mount === 'string') mountOf.set(layer, mount);
    }
  const mountRoutes = [...mountOf.keys()];
  if (unanswered)
    for (const [layer, mount] of mountOf)
      for (const entry of layer.route!.stack!) if (typeof entry.handle === 'function') entry.handle = answering(entry.handle as Handle, mount, unanswered);
  // Express would let the first of two mounts at one path shadow the second silently (Fastify refuses it itself),
  // and a path is the same to it whatever its case and trailing slash unless its router says otherwise. The router's
  // own flags, not the app's settings: it reads those once, when it is created, before the mounts are.
  const [strict, caseSensitive] = [router!.strict === true, router!.caseSensitive === true];
  const routeKey = (path: string) => {
    const key = strict ? path : path.replace(/\/$/, '');
    return caseSensitive ? key : key.toLowerCase();
  };
  const posts = mountRoutes.filter((layer) => layer.route?.methods?.post).map((layer) => String(layer.route!.path));
  const keys = posts.map(routeKey);
  const twice = keys.findIndex((key, i) => keys.indexOf(key) !== i);
  if (twice !== -1) {
    const first = posts[keys.indexOf(keys[twice]!)]!;
    const second = posts[twice]!;
    if (first === second) throw new McpConfigurationError(`path "${second}"`, 'is mounted twice: give each McpModule.forRoot its own path');
    throw new McpConfigurationError(
      `paths "${first}" and "${second}"`,
      "are one route to Express (it matches a path whatever its case and trailing slash, unless its router was created with 'case sensitive routing' or 'strict routing' set): give each McpModule.forRoot its own path",
    );
  }
  const use = app.use as (path: string, handler: Handle) => void;
  const paths = new Map([...mountOf].map(([layer, mount]) => [String(layer.route!.path), mount]));
  // A middleware layer, not a route with a wildcard parameter: it matches by prefix and decodes nothing, so a path
  // below the mount that does not decode (`/mcp/%ZZ`) gets the 404 too, not the router's 400 echoing it.
  for (const [path, mount] of paths) {
    if (atRoot(path)) continue;
    const answer = below(mount);
    use.call(app, path, (req, res, next) => (atMount(req.url ?? '/') ? next() : answer(req, res)));
  }
  // The mount's own paths only, as its routes match them (the app's case and trailing-slash settings): a host route
  // below the mount keeps its parser. A request spelled as registered (the common case) is known without matching.
  const forMount = (req: IncomingMessage) => {
    const url = req.url ?? '';
    if (paths.has(url)) return true;
    const path = routedPath(url);
    return paths.has(path) || mountRoutes.some((layer) => layer.match(path));
  };
  for (const layer of stack) {
    const parse = layer.handle;
    if (layer.route || !parse || !EXPRESS_PARSERS.has(parse.name)) continue;
    const skipping: Handle = (req, res, next) => (forMount(req) ? next() : parse(req, res, next));
    Object.defineProperty(skipping, 'name', { value: parse.name }); // Nest finds a registered parser by its name
    layer.handle = skipping;
  }
}

/**
 * Calls `settled` once Nest's route handler has settled on Fastify. Nest's handler returns the reply, which is a
 * thenable (it resolves once the response is sent), so its promise adopts the reply and settles only when an answer
 * went out: the moment it asks for the reply's `then` is the one the handler was done.
 */
function watchSettled(reply: { then?: unknown }, settled: () => void): void {
  const then = reply.then;
  if (typeof then !== 'function') return;
  reply.then = function (this: unknown, ...args: unknown[]) {
    reply.then = then;
    settled();
    return (then as (...args: unknown[]) => unknown).apply(this, args);
  };
}

/**
 * An Express route handler of a mount that, once the host's handler has settled, answers a request it left
 * unanswered; one it passed on (Nest's version filter, for a request naming another API version) is not the mount's.
 */
function answering(handle: Handle, mount: string, bounds: UnattachedBounds): Handle {
  return async (req, res, next) => {
    let passed = false;
    await handle(req, res, (err) => {
      passed = true;
      next(err);
    });
    if (!passed) answerUnanswered(req, res as ServerResponse, mount, bounds);
  };
}

/**
 * Fastify refuses a path that does not decode before any route or hook runs (a 400 echoing the path, unless the
 * host set `frameworkErrors`), so a path below a mount that does not decode is answered by the fallthrough's 404
 * ahead of Fastify's request listener; every other request goes to Fastify untouched.
 */
function undecodableBelowMounts(server: Server, mountPaths: ReadonlyMap<string, string>, below: BelowMount): void {
  const prefixes = [...mountPaths].filter(([path]) => !atRoot(path)).map(([path, mount]) => ({ prefix: `${path.replace(/\/$/, '')}/`, answer: below(mount) }));
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const under = url.includes('%') ? prefixes.find(({ prefix }) => url.startsWith(prefix)) : undefined;
    if (under && !decodes(url.split('?')[0]!)) return under.answer(req, res);
    for (const listener of listeners) listener.call(server, req, res);
  });
}

/** Scheme and authority of an absolute-form request target (`http://host:port`), which Express routes past. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The path Express routes a request target on: without the scheme and authority of the absolute form (RFC 9112
 * §3.2.2), a query or a fragment.
 */
function routedPath(url: string): string {
  const origin = url.startsWith('/') ? undefined : ABSOLUTE_FORM.exec(url);
  const path = origin ? url.slice(origin[0].length) || '/' : url;
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

/** Whether a URL, its mount prefix stripped by Express, is the mount itself (`/`, with or without a query). */
function atMount(url: string): boolean {
  return url === '/' || url.startsWith('/?');
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function hooks(given: unknown): unknown[] {
  return given === undefined ? [] : Array.isArray(given) ? given : [given];
}

/**
 * Hides the body headers from Fastify's parser choice: set to undefined, which Fastify reads as absent, rather than
 * deleted, so neither the headers nor the request object turns into a slow dictionary-mode object.
 */
function hideBodyHeaders(request: { raw: WithHidden }, _reply: unknown, payload: unknown, done: (err: null, payload: unknown) => void): void {
  const headers = request.raw.headers;
  let hidden: WithHidden[typeof HIDDEN];
  for (const name of BODY_HEADERS) {
    const value = headers[name];
    if (value === undefined) continue;
    (hidden ??= {})[name] = value;
    headers[name] = undefined;
  }
  if (hidden) request.raw[HIDDEN] = hidden;
  done(null, payload);
}

function restoreBodyHeaders(request: { raw: WithHidden }, _reply: unknown, done: () => void): void {
  const hidden = request.raw[HIDDEN];
  if (hidden) {
    Object.assign(request.raw.headers, hidden);
    request.raw[HIDDEN] = undefined;
  }
  done();
}

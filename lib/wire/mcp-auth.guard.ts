import type { IncomingMessage } from 'node:http';

import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';

import { passOn, type ChainStage } from '../contracts/chain-stage.js';
import { bearerToken, McpAuth, type McpAuthDecision, type McpAuthInfo } from '../contracts/mcp-auth.interface.js';
import { type McpRequestRecord, headerLines } from '../contracts/request-record.js';
import { ShutdownDeadline } from '../contracts/shutdown-deadline.js';
import { faultKind } from '../errors/fault-containment.js';
import { httpExceptionParts, isHttpException } from '../errors/http-exception.js';
import { RejectionException } from '../errors/rejection.exception.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { mountName, publish } from '../telemetry/channels.js';
import { bounded, quoted } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { protectedResourceMetadataUrl } from './protected-resource-metadata.js';

/** A fault in the auth provider (a throw, or no `McpAuthDecision`): answered 500 + -32603, never a pass nor a rejection. */
export class AuthFault extends Error {
  override readonly name = 'AuthFault';
  /** @param thrown what the provider threw, or a `TypeError` describing the value it returned */
  constructor(readonly thrown: unknown) {
    super('The auth provider failed.');
  }
}

/** The fault for what the provider threw (or the `TypeError` about what it returned), once `mcp:auth:error` is published. */
function authFault(thrown: unknown, mount: string): AuthFault {
  publish('mcp:auth:error', () => ({ mount, exception: faultKind(thrown), error: bounded(thrown, 200), fault: thrown }));
  return new AuthFault(thrown);
}

/**
 * A refusal the auth check answers: a provider's decision, or `forbidden`, a thrown `ForbiddenException` (403 with no
 * `error` code: the caller is refused outright, so a client has no scope to step up to).
 */
type Refusal = Exclude<McpAuthDecision, { outcome: 'allow' }> | { readonly outcome: 'forbidden'; readonly description?: string };

/** What `await` would wait on: an object or function with a callable `then`. */
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';

/** RFC 6749 §3.3 scope: space-separated scope tokens of NQCHAR. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/;
/** Characters RFC 6750 §3 allows in `error_description`; everything else is sent as `?`. */
const NOT_DESCRIPTION_CHAR = /[^\x20\x21\x23-\x5b\x5d-\x7e]/g;
const DESCRIPTION_MAX = 200;
const DENY_ERRORS = new Set([undefined, 'invalid_token', 'invalid_request']);

/** An exception's own message, unescaped (the challenge's description rules apply to it), or undefined. Total. */
function messageOf(thrown: unknown): string | undefined {
  try {
    const { message } = thrown as Error;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** Text for a challenge's `error_description`: the characters RFC 6750 allows, cut to a bound, ASCII only. */
function descriptionText(text: string): string {
  const safe = text.replace(NOT_DESCRIPTION_CHAR, '?');
  return safe.length <= DESCRIPTION_MAX ? safe : `${safe.slice(0, DESCRIPTION_MAX - 3)}...`;
}

/** Reads a provider's return into a decision, each field once (a getter runs once), or throws a `TypeError` saying what is wrong. */
function readDecision(value: unknown): McpAuthDecision {
  if (!isPlainObject(value)) throw new TypeError(`authenticate() returned ${bounded(value, 60)}, not an McpAuthDecision`);
  const { outcome, info, error, description, scope } = value;
  if (description !== undefined && typeof description !== 'string') throw new TypeError("the decision's description is not a string");
  switch (outcome) {
    case 'allow': {
      if (info === undefined) return { outcome };
      if (!isPlainObject(info)) throw new TypeError('allow() info is not an object');
      const copy: McpAuthInfo = Object.freeze({ ...info });
      if (copy.subject !== undefined && typeof copy.subject !== 'string') throw new TypeError('allow() info.subject is not a string');
      if (copy.scopes !== undefined && !(Array.isArray(copy.scopes) && copy.scopes.every((s) => typeof s === 'string')))
        throw new TypeError('allow() info.scopes is not an array of strings');
      return { outcome, info: copy };
    }
    case 'deny':
      if (!DENY_ERRORS.has(error as string | undefined)) throw new TypeError(`deny() error ${bounded(error, 40)} is not invalid_token or invalid_request`);
      if (scope !== undefined && !(typeof scope === 'string' && SCOPE.test(scope))) throw new TypeError('deny() scope is not a space-separated list of scope tokens');
      return { outcome, error: error as 'invalid_token' | 'invalid_request' | undefined, description, scope };
    case 'insufficient_scope':
      if (!(typeof scope === 'string' && SCOPE.test(scope))) throw new TypeError('insufficientScope() scope is not a space-separated list of scope tokens');
      return { outcome, scope, description };
    default:
      throw new TypeError(`authenticate() returned outcome ${bounded(outcome, 40)}, not allow, deny or insufficient_scope`);
  }
}

/**
 * The auth check: a wire check that asks the `McpAuth` provider about every request before the body is read.
 *
 * | condition                                              | answer                                                  |
 * |--------------------------------------------------------|---------------------------------------------------------|
 * | `Authorization` sent more than once (provider not asked) | 400 `invalid_request`, `error="invalid_request"`        |
 * | provider: `deny()`, `deny({ error: 'invalid_token' })` | 401 `unauthorized`, `WWW-Authenticate: Bearer …`        |
 * | provider: `deny({ error: 'invalid_request' })`         | 400 `invalid_request`                                   |
 * | provider: `insufficientScope(scope)`                   | 403 `insufficient_scope`, `error="insufficient_scope"`, `scope` |
 * | provider throws a Nest `HttpException` of 401, 403, 400 | as `deny()` or `invalid_token`; 403 `forbidden` (no `error`); `invalid_request` |
 * | provider throws anything else, or returns no valid decision | fault: 500 + -32603, `mcp:auth:error`; never a pass |
 * | provider: `allow(info)`                                | passes; `info` reaches every tool as `McpContext.auth`  |
 *
 * Challenges hold only what RFC 6750 allows, plus `resource_metadata` when that option is set. See docs/wire-checks.md.
 * Proven by: test/e2e/auth.e2e-spec.ts, test/sweeps/wire-checks.sweep.e2e-spec.ts
 * @publicApi
 */
@Injectable()
export class McpAuthGuard implements ChainStage {
  /** The rejecter name this check's rejection marks carry. */
  static readonly rejecter = 'auth-check' as const;
  private readonly resourceMetadata: string | undefined;
  private readonly mount: string;

  constructor(
    @Inject(McpAuth) private readonly auth: McpAuth,
    @Inject(MCP_OPTIONS) options: McpResolvedOptions,
    /** Bounds a pending decision by the shutdown deadline. */
    @Inject(ShutdownDeadline) private readonly shutdown: ShutdownDeadline,
  ) {
    this.mount = mountName(options.path);
    this.resourceMetadata = options.protectedResourceMetadata && protectedResourceMetadataUrl(options.protectedResourceMetadata.resource);
  }

  /** Refuses the request (throws a `RejectionException` or an `AuthFault`) or lets it through; never returns false. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return passOn(this, context);
  }

  /** The check; synchronous while the provider answers synchronously. */
  pass(req: IncomingMessage, record: McpRequestRecord): boolean | Promise<boolean> {
    if (headerLines(req).repeated('authorization'))
      throw this.refuse({ outcome: 'deny', error: 'invalid_request', description: 'the Authorization header is sent more than once' }, true);
    let returned: unknown;
    try {
      returned = this.auth.authenticate(req);
    } catch (thrown) {
      throw this.thrownRefusal(thrown, req);
    }
    let thenable: boolean;
    try {
      thenable = isThenable(returned);
    } catch (thrown) {
      throw authFault(thrown, this.mount); // a `then` that throws when read: no decision, and the provider's fault
    }
    if (thenable) {
      const decided = Promise.resolve(returned).then(
        (value) => this.decide(value, record),
        (thrown: unknown) => {
          throw this.thrownRefusal(thrown, req);
        },
      );
      return this.shutdown.bounded(decided, 'the auth provider had not decided on the request when the shutdown deadline (shutdownGraceMs) passed');
    }
    return this.decide(returned, record);
  }

  /**
   * What the provider threw, answered: a Nest `HttpException` of an auth status (401, 403 or 400, the statuses the
   * MCP authorization spec answers with; a Passport habit) is the refusal it names, its message the challenge's
   * description: 401 as `deny()` to a request without a bearer token (RFC 6750 §3.1: no error code), else
   * `invalid_token`; 403 as `forbidden`; 400 as `invalid_request`. Anything else is a fault.
   */
  private thrownRefusal(thrown: unknown, req: IncomingMessage): RejectionException | AuthFault {
    const status = isHttpException(thrown) ? httpExceptionParts(thrown).status : undefined;
    const description = status === undefined ? undefined : messageOf(thrown);
    if (status === 401) return this.refuse(bearerToken(req) === undefined ? { outcome: 'deny' } : { outcome: 'deny', error: 'invalid_token', description }, false);
    if (status === 403) return this.refuse({ outcome: 'forbidden', description }, false);
    if (status === 400) return this.refuse({ outcome: 'deny', error: 'invalid_request', description }, false);
    return authFault(thrown, this.mount);
  }

  /** Reads the provider's answer: a fault unless a decision, a refusal unless `allow`. */
  private decide(returned: unknown, record: McpRequestRecord): boolean {
    let decision: McpAuthDecision;
    try {
      decision = readDecision(returned);
    } catch (thrown) {
      throw authFault(thrown, this.mount);
    }
    if (decision.outcome !== 'allow') throw this.refuse(decision, false);
    record.auth = decision.info;
    return true;
  }

  private refuse(decision: Refusal, duplicate: boolean): RejectionException {
    const error = decision.outcome === 'insufficient_scope' ? 'insufficient_scope' : decision.outcome === 'deny' ? decision.error : undefined;
    const scope = decision.outcome === 'forbidden' ? undefined : decision.scope;
    const params: string[] = [];
    if (error) params.push(`error="${error}"`);
    if (decision.description) params.push(`error_description="${descriptionText(decision.description)}"`);
    if (scope !== undefined) params.push(`scope="${scope}"`);
    if (this.resourceMetadata) params.push(`resource_metadata="${this.resourceMetadata}"`);
    const headers = { 'www-authenticate': params.length ? `Bearer ${params.join(', ')}` : 'Bearer' };
    if (decision.outcome === 'insufficient_scope')
      return new RejectionException('auth-check', 'insufficient_scope', `Forbidden: this request needs scope ${quoted(decision.scope, 200)}.`, { headers });
    if (decision.outcome === 'forbidden') return new RejectionException('auth-check', 'forbidden', 'Forbidden: the auth provider refused this caller.', { headers });
    if (error === 'invalid_request')
      return new RejectionException(
        'auth-check',
        'invalid_request',
        duplicate ? 'Bad request: the Authorization header is sent more than once; send it once.' : 'Bad request: the authorization request is malformed.',
        { headers },
      );
    return new RejectionException(
      'auth-check',
      'unauthorized',
      error === 'invalid_token' ? 'Unauthorized: the bearer token is invalid or expired.' : 'Unauthorized: this request needs a valid bearer token.',
      { headers },
    );
  }
}

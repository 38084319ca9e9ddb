import type { IncomingMessage } from 'node:http';

import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';

import { passOn, type ChainStage } from '../contracts/chain-stage.js';
import { type McpRequestRecord, headerLines } from '../contracts/request-record.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { LEGACY_PROTOCOL_VERSIONS, META_KEYS, MIRRORED_HEADERS, SUPPORTED_PROTOCOL_VERSIONS } from '../mcp.constants.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { ownCopy } from '../util/own-key.js';
import { distilledData, firstProblem } from './distilled-error.js';
import { legacyMeta } from './legacy-envelope.js';
import { ProtocolSchema } from './protocol-schema.js';
import { unsupportedVersion } from './protocol-version.guard.js';
import { echoedSessionId } from './session-id.js';

const REQUIRED = [META_KEYS.protocolVersion, META_KEYS.clientCapabilities] as const;

/** The version a modern request names: its `_meta` protocol version when a string, else its version header. */
function requestedVersion(req: IncomingMessage, meta: unknown): string | undefined {
  const named = isPlainObject(meta) ? meta[META_KEYS.protocolVersion] : undefined;
  return typeof named === 'string' ? named : headerLines(req).value(MIRRORED_HEADERS.protocolVersion);
}

/**
 * The protocol-fields check: every request's `params._meta` carries well-typed protocol fields (version and client
 * capabilities required), else 400 + -32602 naming the versions served, so a legacy client that sent `initialize`
 * can tell its user why. Notifications pass. Runs before header binding, which compares against what it proved.
 * A legacy request has no such fields: they are supplied (`legacyMeta`) and set on its params, so every later
 * stage and handler reads one envelope.
 * @publicApi
 */
@Injectable()
export class ProtocolFieldsGuard implements ChainStage {
  static readonly rejecter = 'protocol-fields' as const;

  constructor(
    private readonly schema: ProtocolSchema,
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
  ) {
    this.schema.validator('RequestMetaObject');
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return passOn(this, context);
  }

  pass(req: IncomingMessage, record: McpRequestRecord): boolean {
    // Its session id scopes a legacy `notifications/cancelled` to its client's requests; no other notification reads it.
    if (record.kind === 'notification' && record.era === 'legacy' && record.method === 'notifications/cancelled') record.sessionIdContents = echoedSessionId(req);
    if (record.kind !== 'request' || record.meta) return true;
    if (record.era === 'legacy') {
      const message = record.message!;
      const lines = headerLines(req);
      if (message.method !== 'initialize') record.sessionIdContents = echoedSessionId(req);
      record.meta = legacyMeta(message, lines.value(MIRRORED_HEADERS.protocolVersion), record.sessionIdContents, this.options.legacyLogLevel);
      const params = isPlainObject(message.params) ? ownCopy(message.params) : {};
      params._meta = record.meta;
      const supplied = ownCopy(message);
      supplied.params = params;
      record.message = supplied;
      return true;
    }
    const params = record.message?.params as Record<string, unknown> | undefined;
    const meta = params?._meta;
    // A mount serving the legacy era only refuses a modern request at once, as the version check would, naming the
    // versions it serves, rather than asking for protocol fields it would then refuse.
    if (this.options.eras === 'legacy') throw unsupportedVersion(requestedVersion(req, meta), LEGACY_PROTOCOL_VERSIONS);
    const supported = [...SUPPORTED_PROTOCOL_VERSIONS];
    if (meta === undefined || meta === null) {
      throw new RejectionException(
        'protocol-fields',
        'missing_protocol_fields',
        `Invalid params: params._meta with ${REQUIRED.join(' and ')} is required on every request; this server serves protocol version ${supported.join(', ')}.`,
        { data: { missing: [...REQUIRED], supported } },
      );
    }
    if (typeof meta === 'object' && !Array.isArray(meta)) {
      const missing = REQUIRED.filter((key) => !(key in meta));
      if (missing.length)
        throw new RejectionException(
          'protocol-fields',
          'missing_protocol_fields',
          `Invalid params: params._meta lacks ${missing.join(' and ')}; this server serves protocol version ${supported.join(', ')}.`,
          { data: { missing, supported } },
        );
    }
    const problems = this.schema.check('RequestMetaObject', meta);
    if (problems.length) {
      const distilled = distilledData(problems, ['params', '_meta']);
      throw new RejectionException(
        'protocol-fields',
        'malformed_protocol_fields',
        `Invalid params: the protocol fields in params._meta are malformed${firstProblem(distilled)}.`,
        {
          data: Object.assign(distilled, { supported }),
        },
      );
    }
    record.meta = meta as Record<string, unknown>;
    return true;
  }
}

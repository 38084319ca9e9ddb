import type { IncomingMessage } from 'node:http';

import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';

import { passOn, type ChainStage } from '../contracts/chain-stage.js';
import { headerLines, type McpRequestRecord } from '../contracts/request-record.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { LEGACY_PROTOCOL_VERSIONS, META_KEYS, SUPPORTED_PROTOCOL_VERSIONS } from '../mcp.constants.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { bounded, quoted } from '../util/bounded.js';

/**
 * The version check, after header binding: the request's protocol version must be one this server serves in its
 * era, else 400 + -32022 with `data: {supported, requested}`: the modern era's list is exactly what
 * `server/discover` lists, the legacy era's what `initialize` negotiates (a legacy request's version is its
 * `MCP-Protocol-Version` header). A modern request to a mount serving the legacy era only is refused the same way,
 * naming the legacy versions. A notification or response is held to the version header it sends, if any.
 * @publicApi
 */
@Injectable()
export class ProtocolVersionGuard implements ChainStage {
  static readonly rejecter = 'version-check' as const;

  constructor(@Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return passOn(this, context);
  }

  pass(req: IncomingMessage, record: McpRequestRecord): boolean {
    // A notification or response has no protocol fields: only a version header it sends is checked.
    const request = record.kind === 'request';
    const requested = request ? record.meta?.[META_KEYS.protocolVersion] : headerLines(req).value('mcp-protocol-version');
    if (!request && requested === undefined) return true;
    if (typeof requested !== 'string') throw new Error('ProtocolVersionGuard runs after ProtocolFieldsGuard');
    const legacyServed = record.era === 'legacy' || this.options.eras === 'legacy';
    const supported: readonly string[] = legacyServed ? LEGACY_PROTOCOL_VERSIONS : SUPPORTED_PROTOCOL_VERSIONS;
    // The era must match too: a notification modern by its _meta, sent to a legacy-only mount, is refused.
    if (supported.includes(requested) && (record.era === 'legacy') === legacyServed) return true;
    throw unsupportedVersion(requested, supported);
  }
}

/**
 * The version check's refusal: 400 + -32022 naming the versions `supported`, and the one `requested` when the
 * request named one (a modern request to a legacy-only mount may carry only its client capabilities). A legacy
 * version can only be refused here for a message classified modern, so the message says what made it one.
 */
export function unsupportedVersion(requested: string | undefined, supported: readonly string[]): RejectionException {
  const named =
    requested === undefined
      ? 'of a 2026-07-28 request'
      : (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(requested)
        ? `${quoted(requested, 40)} for a message carrying 2026-07-28 protocol fields in _meta (a client of that revision opens with initialize and sends none)`
        : quoted(requested, 40);
  return new RejectionException('version-check', 'unsupported_version', `Unsupported protocol version ${named}; this server supports ${supported.join(', ')}.`, {
    data: { supported: [...supported], ...(requested !== undefined && { requested: bounded(requested, 256) }) },
  });
}

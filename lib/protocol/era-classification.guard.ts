import type { IncomingMessage } from 'node:http';

import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';

import { passOn, type ChainStage } from '../contracts/chain-stage.js';
import { type McpRequestRecord, headerLines } from '../contracts/request-record.js';
import { META_KEYS, MIRRORED_HEADERS, SUPPORTED_PROTOCOL_VERSIONS, type McpEra } from '../mcp.constants.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { isPlainObject } from '../util/is-plain-object.js';

/** The oldest modern revision: a header naming it or a later one marks a modern request. */
const MODERN_FROM = SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1];

/**
 * Which era a parsed message belongs to: modern when its `params._meta` carries the protocol version or the client
 * capabilities (a `progressToken`, which every revision has, does not count), or its `MCP-Protocol-Version` header
 * names 2026-07-28 or later (revisions are dates, so they compare as strings); legacy otherwise, an `initialize` and
 * a client's answer to an input request included.
 */
function classifyEra(message: Record<string, unknown>, versionHeader: string | undefined): McpEra {
  const meta = isPlainObject(message.params) ? message.params._meta : undefined;
  if (isPlainObject(meta) && (Object.hasOwn(meta, META_KEYS.protocolVersion) || Object.hasOwn(meta, META_KEYS.clientCapabilities))) return 'modern';
  return versionHeader !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(versionHeader) && versionHeader >= MODERN_FROM ? 'modern' : 'legacy';
}

/**
 * Era classification: the POST-chain stage, right after the parse step, that records the era a request is served
 * under, so every later stage and the method layer branch on it instead of guessing. It never refuses: with
 * `eras: 'modern'` every request is served as modern (a legacy `initialize` then meets the protocol-fields
 * check's 400, naming the supported versions); with `eras: 'legacy'` a modern request is classified honestly and
 * the version check refuses it.
 * @publicApi
 */
@Injectable()
export class EraClassificationGuard implements ChainStage {
  /** This stage refuses nothing: it carries no rejection mark. */
  static readonly rejecter = null;

  constructor(@Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return passOn(this, context);
  }

  pass(req: IncomingMessage, record: McpRequestRecord): boolean {
    if (record.era) return true;
    if (!record.message) throw new Error('EraClassificationGuard runs after ParseStepGuard');
    record.era = this.options.eras === 'modern' ? 'modern' : classifyEra(record.message, headerLines(req).value(MIRRORED_HEADERS.protocolVersion));
    return true;
  }
}

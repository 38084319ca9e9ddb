import type { IncomingMessage } from 'node:http';

import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';

import { requestRecord } from '../contracts/request-record.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { META_KEYS, SUPPORTED_PROTOCOL_VERSIONS } from '../mcp.constants.js';
import { bounded, quoted } from '../util/bounded.js';

/**
 * The version check, after header binding: the request's protocol version must be one this server serves, else
 * 400 + -32022 with `data: {supported, requested}`, `supported` being exactly what `server/discover` lists.
 * @publicApi
 */
@Injectable()
export class ProtocolVersionGuard implements CanActivate {
  static readonly rejecter = 'version-check' as const;

  canActivate(context: ExecutionContext): boolean {
    const record = requestRecord(context.switchToHttp().getRequest<IncomingMessage>());
    if (record.kind !== 'request') return true;
    const requested = record.meta?.[META_KEYS.protocolVersion];
    if (typeof requested !== 'string') throw new Error('ProtocolVersionGuard runs after ProtocolFieldsGuard');
    if ((SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested)) return true;
    throw new RejectionException(
      'version-check',
      'unsupported_version',
      `Unsupported protocol version ${quoted(requested, 40)}; this server supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
      { data: { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested: bounded(requested, 256) } },
    );
  }
}

import type { IncomingMessage } from 'node:http';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { MIRRORED_HEADERS } from '../mcp.constants.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { bounded } from '../util/bounded.js';

/** The singleton headers this check owns, lower-cased; plus every name of the `Mcp-Param-*` family. */
export const OWNED_SINGLETON_HEADERS = [MIRRORED_HEADERS.protocolVersion, MIRRORED_HEADERS.method, MIRRORED_HEADERS.name] as const;

/**
 * The singleton-header check: a wire check (order: `wire-checks.ts`). Rejects a duplicated
 * MCP-Protocol-Version, Mcp-Method or Mcp-Name header, or a repeated name of the Mcp-Param-* family (400 +
 * -32020 naming the header), failing closed. Invariant: every later reader of these headers sees zero or one
 * value. It reads `req.headersDistinct`, because `req.headers` joins or drops repeated lines. `Origin` is the
 * origin check's, `Authorization` the auth check's.
 * @publicApi
 */
@Injectable()
export class SingletonHeaderGuard implements CanActivate {
  static readonly rejecter = 'singleton-header-check' as const;

  canActivate(context: ExecutionContext): boolean {
    const distinct = context.switchToHttp().getRequest<IncomingMessage>().headersDistinct;
    for (const [name, values] of Object.entries(distinct)) {
      if (!values || values.length < 2) continue;
      if ((OWNED_SINGLETON_HEADERS as readonly string[]).includes(name) || name.startsWith(MIRRORED_HEADERS.paramPrefix))
        throw new RejectionException(
          'singleton-header-check',
          'duplicate_header',
          `Bad request: the ${bounded(name, 80)} header is sent more than once; it may carry one value.`,
          { data: { header: bounded(name, 80) } },
        );
    }
    return true;
  }
}

import type { IncomingMessage } from 'node:http';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { MIRRORED_HEADER_DISPLAY, MIRRORED_HEADERS } from '../mcp.constants.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { bounded } from '../util/bounded.js';

/** The singleton headers this check owns (besides the `Mcp-Param-*` family): the fixed mirrored headers. */
const OWNED_SINGLETON_HEADERS = MIRRORED_HEADER_DISPLAY;

/**
 * The singleton-header check: a wire check (order: `wire-checks.ts`). Rejects a duplicated
 * `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` header, or a repeated name of the `Mcp-Param-*` family, with
 * 400 + -32020 naming the header, failing closed even when the repeated values agree (the spec says nothing
 * about repeated headers; an intermediary may have read either line).
 *
 * Invariant: every later reader of these headers sees zero or one value. It reads `req.headersDistinct`,
 * because `req.headers` joins repeated lines with `", "` (or keeps only the first). Not its headers: `Origin`
 * and `Host` are the origin check's, `Authorization` the auth check's, `Content-Type` the parse step's. Depends
 * on nothing. Proven by: test/e2e/header-binding.e2e-spec.ts, test/sweeps/wire-checks.sweep.e2e-spec.ts
 * @publicApi
 */
@Injectable()
export class SingletonHeaderGuard implements CanActivate {
  /** The rejecter name this check's rejection marks carry. */
  static readonly rejecter = 'singleton-header-check' as const;

  /** Refuses the request (throws a `RejectionException`) or lets it through; never returns false. */
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    for (const [name, values] of Object.entries(req.headersDistinct)) {
      if (!values || values.length < 2) continue;
      const owned = Object.hasOwn(OWNED_SINGLETON_HEADERS, name);
      if (!owned && !name.startsWith(MIRRORED_HEADERS.paramPrefix)) continue;
      const header = owned ? OWNED_SINGLETON_HEADERS[name as keyof typeof OWNED_SINGLETON_HEADERS] : `Mcp-Param-${bounded(name.slice(MIRRORED_HEADERS.paramPrefix.length), 80)}`;
      throw new RejectionException(
        'singleton-header-check',
        'duplicate_header',
        `Header mismatch: the ${header} header is sent more than once; send it once.`,
        { data: { header } },
      );
    }
    return true;
  }
}

import type { IncomingMessage } from 'node:http';

import { Injectable, type ExecutionContext } from '@nestjs/common';

import { passOn, type ChainStage } from '../contracts/chain-stage.js';
import { headerLines } from '../contracts/request-record.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { MIRRORED_HEADER_DISPLAY, MIRRORED_HEADERS } from '../mcp.constants.js';
import { bounded } from '../util/bounded.js';

/** The singleton headers this check owns (besides the `Mcp-Param-*` family): the fixed mirrored headers. */
const OWNED_SINGLETON_HEADERS = MIRRORED_HEADER_DISPLAY;

/**
 * The singleton-header check: refuses a repeated `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` or `Mcp-Param-*`
 * header with 400 + -32020, even when the values agree (fails closed: an intermediary may have read either line).
 * Reads the header lines as sent (`headerLines`) because `req.headers` joins or drops repeated lines.
 * Proven by: test/e2e/header-binding.e2e-spec.ts, test/sweeps/wire-checks.sweep.e2e-spec.ts
 * @publicApi
 */
@Injectable()
export class SingletonHeaderGuard implements ChainStage {
  /** The rejecter name this check's rejection marks carry. */
  static readonly rejecter = 'singleton-header-check' as const;

  /** Refuses the request (throws a `RejectionException`) or lets it through; never returns false. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return passOn(this, context);
  }

  pass(req: IncomingMessage): boolean {
    for (const name of headerLines(req).repeatedNames()) {
      const owned = Object.hasOwn(OWNED_SINGLETON_HEADERS, name);
      if (!owned && !name.startsWith(MIRRORED_HEADERS.paramPrefix)) continue;
      const header = owned
        ? OWNED_SINGLETON_HEADERS[name as keyof typeof OWNED_SINGLETON_HEADERS]
        : `Mcp-Param-${bounded(name.slice(MIRRORED_HEADERS.paramPrefix.length), 80)}`;
      throw new RejectionException('singleton-header-check', 'duplicate_header', `Header mismatch: the ${header} header is sent more than once; send it once.`, {
        data: { header },
      });
    }
    return true;
  }
}

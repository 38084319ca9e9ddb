import type { IncomingMessage } from 'node:http';

import type { CanActivate, ExecutionContext } from '@nestjs/common';

import { nodeRequest } from '../util/node-http.js';
import { requestRecord, type McpRequestRecord } from './request-record.js';

/**
 * A POST-chain stage that `PostChainGuard` can run without Nest's execution context: `pass` is its check on the
 * Node request, the request's record and the host's request, refusing by throwing; its `canActivate` runs the same
 * check for a host route it is bound on (through {@link passOn}).
 */
export interface ChainStage extends CanActivate {
  pass(req: IncomingMessage, record: McpRequestRecord, hostReq: object): boolean | Promise<boolean>;
}

/** A stage's `canActivate` on a host route: its `pass` on the Node request, its record and the host's request. */
export function passOn<R extends boolean | Promise<boolean>>(
  stage: { pass(req: IncomingMessage, record: McpRequestRecord, hostReq: object): R },
  context: ExecutionContext,
): R {
  const hostReq = context.switchToHttp().getRequest<object>();
  const req = nodeRequest(hostReq);
  return stage.pass(req, requestRecord(req), hostReq);
}

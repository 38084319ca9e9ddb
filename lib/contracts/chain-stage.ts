import type { IncomingMessage } from 'node:http';

import type { CanActivate } from '@nestjs/common';

import type { McpRequestRecord } from './request-record.js';

/**
 * A POST-chain stage that `PostChainGuard` can run without Nest's execution context: `pass` is its check on the
 * Node request, the request's record and the host's request, refusing by throwing; its `canActivate` runs the same
 * check for a host route it is bound on.
 */
export interface ChainStage extends CanActivate {
  pass(req: IncomingMessage, record: McpRequestRecord, hostReq: object): boolean | Promise<boolean>;
}

import { Injectable } from '@nestjs/common';

import { sharedResult, type McpResult } from '../protocol/json-rpc.js';
import type { McpMethodHandler } from './method-handler.interface.js';

/** The one result of every `ping`: shared, so the router shapes it and the answer serializes it once. */
const PONG = sharedResult<McpResult>({ resultType: 'complete' });

/** `ping` (legacy era): an empty result, proving the server answers. */
@Injectable()
export class PingHandler implements McpMethodHandler {
  readonly method = 'ping' as const;
  readonly eras = ['legacy'] as const;

  served(): boolean {
    return true;
  }

  async handle(): Promise<McpResult> {
    return PONG;
  }
}

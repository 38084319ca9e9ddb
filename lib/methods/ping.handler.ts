import { Injectable } from '@nestjs/common';

import type { McpResult } from '../protocol/json-rpc.js';
import type { McpMethodHandler } from './method-handler.interface.js';

/** `ping` (legacy era): an empty result, proving the server answers. */
@Injectable()
export class PingHandler implements McpMethodHandler {
  readonly method = 'ping' as const;
  readonly eras = ['legacy'] as const;

  served(): boolean {
    return true;
  }

  async handle(): Promise<McpResult> {
    return { resultType: 'complete' };
  }
}

import { Injectable } from '@nestjs/common';

import type { McpResult } from '../protocol/json-rpc.js';
import type { McpMethodHandler } from './method-handler.interface.js';
import { ServerCapabilities } from './server-capabilities.js';

/**
 * `logging/setLevel` (legacy era): acknowledged with an empty result. A stateless server cannot remember the level
 * for later requests, so a legacy request's log messages are sent at every level (see `legacyMeta`).
 */
@Injectable()
export class SetLevelHandler implements McpMethodHandler {
  readonly method = 'logging/setLevel' as const;
  readonly eras = ['legacy'] as const;

  constructor(private readonly capabilities: ServerCapabilities) {}

  served(): boolean {
    return 'logging' in this.capabilities.current('legacy');
  }

  async handle(): Promise<McpResult> {
    return { resultType: 'complete' };
  }
}

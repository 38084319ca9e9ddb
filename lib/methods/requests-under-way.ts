import { Inject, Injectable } from '@nestjs/common';

import type { McpRequestRecord } from '../contracts/request-record.js';
import { capacityRefusal } from '../errors/capacity-refusal.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { requestFootprint } from '../protocol/request-footprint.js';

/**
 * The requests under way on one mount: those whose handlers are running, each counted by its footprint, held together
 * to at most `maxUnderWayBytes`. A request that would take them past it is refused before its handler runs; one
 * running is never stopped for room.
 */
@Injectable()
export class RequestsUnderWay {
  private readonly max: number;
  private total = 0;

  constructor(@Inject(MCP_OPTIONS) options: Pick<McpResolvedOptions, 'maxUnderWayBytes'>) {
    this.max = options.maxUnderWayBytes;
  }

  /** The bytes the requests under way hold together. */
  get held(): number {
    return this.total;
  }

  /**
   * Counts a request whose handler is about to run; `release` its bytes once the handler settled.
   * @returns the bytes counted
   * @throws {McpMethodError} a capacity refusal (503 + -32603, `under_way_bytes_limit`) when they would take the
   * requests under way past `maxUnderWayBytes`; nothing is counted then
   */
  admit(record: McpRequestRecord): number {
    const bytes = requestFootprint(record);
    if (this.total + bytes > this.max)
      throw capacityRefusal(
        'under_way_bytes_limit',
        `the requests under way on this server already hold ${this.total} of the ${this.max} bytes they may, and this one has ${bytes}`,
        'retry later, or send a smaller request',
      );
    this.total += bytes;
    return bytes;
  }

  /** Gives back what `admit` counted, once the request's handler settled. */
  release(bytes: number): void {
    this.total -= bytes;
  }
}

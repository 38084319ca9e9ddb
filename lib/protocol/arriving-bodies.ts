import { Inject, Injectable } from '@nestjs/common';

import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { ByteBound, type BoundMember } from '../util/byte-bound.js';

/**
 * The arriving bodies of one mount: the request bodies it is reading, each by the buffer it fills (`readBody`), held
 * together to at most `maxArrivingBytes`. When a body's bytes take them past it, the reads whose last bytes arrived least
 * recently are refused (408, `stalled_read`) until they fit again, never the one counted (`maxBodyBytes` and the read
 * timeouts bound a single read).
 */
@Injectable()
export class ArrivingBodies extends ByteBound<BoundMember> {
  constructor(@Inject(MCP_OPTIONS) options: Pick<McpResolvedOptions, 'maxArrivingBytes'>) {
    super(options.maxArrivingBytes);
  }
}

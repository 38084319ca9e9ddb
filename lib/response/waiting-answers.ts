import { Inject, Injectable } from '@nestjs/common';

import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { ByteBound, type BoundMember } from '../util/byte-bound.js';

/** An answer whose client has not taken all of it, as the mount's bound sees it (`AnswerStream`): cut off to make room (`mcp:answer:stalled`, bound `maxWaitingBytes`). */
export type WaitingAnswer = BoundMember;

/**
 * The waiting answers of one mount: those with bytes their clients have not taken, held together to at most
 * `maxWaitingBytes`. When an answer's count takes them past it, the answers whose clients took a byte least recently
 * are cut off until they fit again, never the one being counted (`writeStallTimeoutMs` bounds an answer larger than
 * the bound). Progress is seen at the write watch's looks, so "least recently" is as fine as they are.
 */
@Injectable()
export class WaitingAnswers extends ByteBound<WaitingAnswer> {
  constructor(@Inject(MCP_OPTIONS) options: Pick<McpResolvedOptions, 'maxWaitingBytes'>) {
    super(options.maxWaitingBytes);
  }
}

import { Inject, Injectable } from '@nestjs/common';

import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';

/** An answer whose client has not taken all of it, as the mount's bound sees it (`AnswerStream`). */
export interface WaitingAnswer {
  /** Cuts the answer off to make room for others (`mcp:answer:stalled`, bound `maxWaitingBytes`). */
  cutForRoom(): void;
}

/**
 * The waiting answers of one mount: those with bytes their clients have not taken, held together to at most
 * `maxWaitingBytes`. When an answer's count takes them past it, the answers whose clients took a byte least recently
 * are cut off until they fit again; never the one being counted, so a single answer larger than the bound goes on
 * (`writeStallTimeoutMs` bounds it). Progress is seen at the write watch's looks, so "least recently" is as fine as
 * they are.
 */
@Injectable()
export class WaitingAnswers {
  /** Each waiting answer's bytes as last counted, in the order their clients last took some (least recent first). */
  private readonly bytes = new Map<WaitingAnswer, number>();
  private total = 0;

  constructor(@Inject(MCP_OPTIONS) private readonly options: Pick<McpResolvedOptions, 'maxWaitingBytes'>) {}

  /** The bytes all waiting answers held at their last count. */
  get held(): number {
    return this.total;
  }

  /**
   * Counts what `answer` has waiting now; `took`: its client took some since the last count (it goes to the back of
   * the line). None waiting takes it out of the line.
   */
  count(answer: WaitingAnswer, waiting: number, took: boolean): void {
    const before = this.bytes.get(answer);
    if (before !== undefined) {
      this.total -= before;
      if (took || waiting === 0) this.bytes.delete(answer);
    }
    if (waiting === 0) return;
    this.bytes.set(answer, waiting);
    this.total += waiting;
    if (this.total > this.options.maxWaitingBytes) this.makeRoom(answer);
  }

  /** The answer closed (or was cut off): nothing of it waits any more. */
  forget(answer: WaitingAnswer): void {
    const before = this.bytes.get(answer);
    if (before === undefined) return;
    this.total -= before;
    this.bytes.delete(answer);
  }

  private makeRoom(counted: WaitingAnswer): void {
    for (const answer of this.bytes.keys()) {
      if (this.total <= this.options.maxWaitingBytes) return;
      if (answer === counted) continue;
      this.forget(answer);
      answer.cutForRoom();
    }
  }
}

import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';

import type { McpRequestRecord } from '../contracts/request-record.js';
import { capacityRefusal } from '../errors/capacity-refusal.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { shuttingDown } from '../errors/shutting-down.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { MountClosing } from '../response/mount-closing.js';
import { quiet } from '../util/quiet-promise.js';

/** What a client sent back for one input request: the JSON-RPC response's `result`, or its `error`. */
export type InputAnswer = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string } };

interface Pending {
  readonly subject: string | undefined;
  /** The call that waits (its input requests share one count of its bytes). */
  readonly holder: object;
  readonly settle: (answer: InputAnswer | Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * The legacy era's pending input requests on one mount: each server-to-client request waiting, in this process,
 * for the client's answer POSTed back as a JSON-RPC response. Bounded in count (`legacyInputRequests.maxPending`:
 * one more is refused), in the bytes of the calls that wait (`maxPendingBytes`: a waiting call holds its request,
 * counted once however many of its input requests wait) and in age (`timeoutMs`: then it fails); an answer is taken
 * only from the caller that was asked (the same auth subject), and a settled, timed-out or withdrawn request leaves
 * nothing behind. Answers must reach the process that asked: behind a load balancer, route a legacy client's
 * requests to one instance. At shutdown every request still waiting, and any asked after, fails with
 * `shutting_down` (503 + -32603).
 */
@Injectable()
export class PendingInputRequests {
  private readonly pending = new Map<string, Pending>();
  /** Each waiting call: how many of its input requests wait, and the bytes of its request, counted once. */
  private readonly holders = new Map<object, { waiting: number; bytes: number }>();
  /** The bytes of the waiting calls' requests, each call counted once however many of its requests wait. */
  private heldBytes = 0;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    @Inject(MountClosing) private readonly shutdown: MountClosing,
  ) {
    shutdown.whenClosing(() => this.withdrawAll());
  }

  /**
   * Opens one pending request for the caller `subject`: its id, to send, and the answer, which rejects once the
   * request times out or is withdrawn. `holder` is the call that asks, whose request (`bytes`) is held while any of
   * its input requests waits: counted once, when its first starts waiting (without a holder, each request is a call).
   * @throws {McpMethodError} a capacity refusal (-32603, sent with 200 as every legacy method error) when
   * `maxPending` requests already wait, or when a call that holds none yet would take the bytes past
   * `maxPendingBytes`; `shutting_down` once the application shuts down
   */
  open(subject: string | undefined, bytes = 0, holder: object = {}): { id: string; answer: Promise<InputAnswer>; withdraw: () => void } {
    if (this.shutdown.closing) throw shuttingDown('no input request can wait for an answer');
    const { maxPending, maxPendingBytes, timeoutMs } = this.options.legacyInputRequests;
    if (this.pending.size >= maxPending)
      throw capacityRefusal('too_many_pending_input_requests', `${maxPending} input requests already wait for their clients' answers on this server`);
    const held = this.holders.get(holder);
    if (!held && this.heldBytes + bytes > maxPendingBytes)
      throw capacityRefusal(
        'too_many_pending_input_bytes',
        `the calls waiting for their clients' answers on this server already hold ${this.heldBytes} of the ${maxPendingBytes} bytes they may`,
      );
    const id = `mcp-input-${randomUUID()}`;
    let settle!: Pending['settle'];
    const answer = new Promise<InputAnswer>((resolve, reject) => {
      settle = (outcome) => {
        const entry = this.pending.get(id);
        if (!entry) return;
        clearTimeout(entry.timer);
        this.pending.delete(id);
        const call = this.holders.get(entry.holder)!;
        if (--call.waiting === 0) {
          this.holders.delete(entry.holder);
          this.heldBytes -= call.bytes;
        }
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
    });
    const timer = setTimeout(() => settle(unanswered(id, timeoutMs)), timeoutMs);
    timer.unref();
    this.pending.set(id, { subject, holder, settle, timer });
    if (held) held.waiting++;
    else {
      this.holders.set(holder, { waiting: 1, bytes });
      this.heldBytes += bytes;
    }
    // Quiet: a request withdrawn or timed out before anyone awaits its answer must not end the process.
    return { id, answer: quiet(answer), withdraw: () => settle(new Error(`input request ${id} was withdrawn: its call ended`)) };
  }

  /**
   * Delivers a client's answer. Returns false when no request with that id waits for this caller here (unknown,
   * already answered, timed out, another caller's, or asked by another process).
   */
  deliver(id: unknown, answer: InputAnswer, subject: string | undefined): boolean {
    const entry = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (!entry || entry.subject !== subject) return false;
    entry.settle(answer);
    return true;
  }

  /**
   * Answer routing: takes a legacy client's JSON-RPC response (the POST chain proved its envelope) as the answer to
   * the input request with its id; a response no request of this caller waits for here is refused (400 -32600).
   */
  accept(record: McpRequestRecord): void {
    const message = record.message!;
    const answer: InputAnswer = 'result' in message ? { result: message.result } : { error: message.error as { code: number; message: string } };
    if (!this.deliver(record.id, answer, record.auth?.subject))
      throw new RejectionException(
        'answer-routing',
        'unknown_answer',
        'Invalid request: no input request with this id waits for your answer on this server (it was answered, timed out, or was sent by another instance).',
      );
  }

  /** How many requests wait. */
  get size(): number {
    return this.pending.size;
  }

  /**
   * As the shutdown begins (`MountClosing.whenClosing`; the HTTP server's close would wait for the calls these hold
   * open): each waiting call's input request fails, so the call ends with the `shutting_down` error unless its tool
   * catches it.
   */
  private withdrawAll(): void {
    for (const entry of [...this.pending.values()]) entry.settle(shuttingDown('the input request is withdrawn before its answer came'));
  }
}

/**
 * The error an input request rejects with when its client did not answer within `timeoutMs`: a JSON-RPC error the
 * tool may catch (`data.reason`), and the call's answer when it does not, as at shutdown; the client's silence is
 * no fault of the tool's.
 */
function unanswered(id: string, timeoutMs: number): McpMethodError {
  return new McpMethodError(
    JSON_RPC_CODES.internalError,
    `Internal error: the client did not answer input request ${id} within ${timeoutMs} ms (legacyInputRequests.timeoutMs).`,
    { reason: 'input_request_timeout' },
    504,
  );
}

import type { IncomingMessage } from 'node:http';

import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';

import type { ChainStage } from './contracts/chain-stage.js';
import { requestRecord, type McpRequestRecord } from './contracts/request-record.js';
import { EraClassificationGuard } from './protocol/era-classification.guard.js';
import { HeaderBindingGuard } from './protocol/header-binding.guard.js';
import { MessageValidationGuard } from './protocol/message-validation.guard.js';
import { ParseStepGuard } from './protocol/parse-step.guard.js';
import { ProtocolFieldsGuard } from './protocol/protocol-fields.guard.js';
import { ProtocolVersionGuard } from './protocol/protocol-version.guard.js';
import { turnOf } from './response/turn.js';
import { nodeRequest, rawResponse } from './util/node-http.js';
import { WIRE_CHECKS } from './wire/wire-checks.js';

/**
 * The POST chain: every stage a POST to the mount meets before method routing, in a load-bearing order:
 * 1. the wire checks (`WIRE_CHECKS`): origin 403, singleton headers 400, auth 401/403;
 * 2. the parse step: 413, 408, -32700, -32600;
 * 3. era classification: modern or legacy, which every later stage reads; it refuses nothing;
 * 4. message classification and validation against the era's schema: -32600 (a notification, or a legacy
 *    client's answer to an input request, is then answered 202 by the controller);
 * 5. the protocol-fields check: -32602 (a legacy request's fields are supplied), before header binding;
 * 6. the header-binding check (modern era): -32020, before the version check (a header `2026-07-28` with
 *    `_meta` `v999` is a mismatch, not an unsupported version);
 * 7. the version check: -32022.
 * Method routing (404 + -32601, then params -32602) follows. A host's global guards and body parser run first
 * (see `ParseStepGuard`).
 * Proven by: test/sweeps/post-chain.sweep.e2e-spec.ts
 * @publicApi
 */
export const CHAIN_GUARDS = [
  ...WIRE_CHECKS,
  ParseStepGuard,
  EraClassificationGuard,
  MessageValidationGuard,
  ProtocolFieldsGuard,
  HeaderBindingGuard,
  ProtocolVersionGuard,
] as const;

/**
 * The POST chain as the mount's one guard: runs the `CHAIN_GUARDS` instances of its module in order, each through
 * its `pass`, on the request and record read once, awaiting only the
 * stages that return a promise, so a request pays Nest's guard machinery once rather than once per stage. The
 * first stage to refuse throws its rejection; none returns false.
 */
@Injectable()
export class PostChainGuard implements CanActivate {
  private readonly stages: readonly ChainStage[];

  constructor(moduleRef: ModuleRef) {
    this.stages = CHAIN_GUARDS.map((stage) => moduleRef.get<ChainStage>(stage, { strict: true }));
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const hostReq = context.getArgByIndex<object>(0);
    const req = nodeRequest(hostReq);
    // A request pipelined behind another's answer is taken up in its turn (response/turn.ts); TurnLost if never.
    const turn = turnOf(req, rawResponse(context.getArgByIndex<object>(1)));
    if (turn) return turn.then(() => this.runFrom(0, req, requestRecord(req), hostReq));
    return this.runFrom(0, req, requestRecord(req), hostReq);
  }

  /** Runs the stages from `first` on: synchronously until one returns a promise, the rest once it resolves. */
  private runFrom(first: number, req: IncomingMessage, record: McpRequestRecord, hostReq: object): boolean | Promise<boolean> {
    for (let i = first; i < this.stages.length; i++) {
      const passed = this.stages[i]!.pass(req, record, hostReq);
      if (passed instanceof Promise) return passed.then((ok: boolean) => ok && this.runFrom(i + 1, req, record, hostReq));
      if (!passed) return false;
    }
    return true;
  }
}

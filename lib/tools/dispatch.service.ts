import { performance } from 'node:perf_hooks';

import { Inject, Injectable } from '@nestjs/common';

import { faultKind, faultMessage, passesContainment } from '../errors/fault-containment.js';
import { isHttpException } from '../errors/http-exception.js';
import { isMethodError } from '../errors/mcp-method.error.js';
import type { McpEra } from '../mcp.constants.js';
import { isInputRequired, misuseAfter } from '../mrtr/input-required.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { mountName, publish } from '../telemetry/channels.js';
import { httpExceptionResult } from './http-exception-result.js';
import { errorResult, faultResult } from './tool-result.js';
import type { ToolCallResult } from './tool.interfaces.js';
import type { McpContextFactory, ToolRun, WiredTool } from './wired-tool.js';

/** How one call is dispatched, beside its tool and arguments. */
export interface DispatchOptions {
  /** The era the call is served under, for telemetry. @default 'modern' */
  readonly era?: McpEra;
  /**
   * Awaited first once the gates let the call through: the call's own checks that cost more than the gates (an echoed
   * `requestState`). What it throws is rethrown, never contained: a JSON-RPC error counts as the caller's
   * (`errorKind: 'dispatch'`).
   */
  readonly admit?: () => Promise<void>;
  /** Awaited once the call is admitted, before its handler runs: a call that is a task as it starts is stored first. */
  readonly beforeHandler?: () => Promise<void>;
  /** The parse step's walk proved the body holds no number out of range (`McpRequestRecord.numbersInRange`): the value gate looks for none. */
  readonly numbersInRange?: boolean;
}

/**
 * Dispatches one tools/call to a wired tool (gates, admission, then handler) inside fault containment: a fault
 * becomes a fault diagnostic and one `mcp:tool:error`; a value with the pass mark is rethrown; a Nest
 * `HttpException` is the tool's answer, not a fault (an `isError` result with its status and message); what a
 * handler throws once its context's signal fired (the client left, the task was cancelled) is no fault either (no
 * `mcp:tool:error`: it stopped as asked, and nobody reads its answer). Emits `mcp:tool:start` and, after every run,
 * `mcp:tool:stop`.
 */
@Injectable()
export class DispatchService {
  /** What this mount's events name it. */
  private readonly mount: string;

  constructor(@Inject(MCP_OPTIONS) options: McpResolvedOptions) {
    this.mount = mountName(options.path);
  }

  /** Dispatches a call; resolves to a tool result unless a thrown value passes containment. */
  async call(tool: WiredTool, args: Record<string, unknown>, contextFor: McpContextFactory, options: DispatchOptions = {}): Promise<ToolCallResult> {
    const { era = 'modern', admit, beforeHandler, numbersInRange = false } = options;
    const named = typeof args.action === 'string' && tool.help.actions.has(args.action) ? args.action : undefined;
    const mount = this.mount;
    publish('mcp:tool:start', () => ({ mount, tool: tool.name, ...(named !== undefined && { action: named }), era }));
    const started = performance.now();
    const run: ToolRun = { contextFor };
    let result: ToolCallResult | undefined;
    let threwError = false;
    let admitting = false;
    try {
      const gated = tool.gate(args, numbersInRange);
      if ('refusal' in gated) {
        run.errorKind = 'dispatch';
        result = errorResult(gated.refusal.payload);
      } else {
        run.action = gated.action;
        if (admit) {
          admitting = true;
          await admit();
          admitting = false;
        }
        if (beforeHandler) await beforeHandler();
        result = await tool.handle(gated, run);
        if (result.isError === true) run.errorKind ??= 'tool';
      }
    } catch (caught) {
      // A tool that rethrew the input-required signal after misusing an input request meets that misuse instead.
      const misused = misuseAfter(caught);
      const thrown = misused ? misused.thrown : caught;
      if (admitting) {
        // Not the tool's: a refusal of the call's own, or a fault of the server's (say, its requestState codec).
        threwError = true;
        if (isMethodError(thrown)) run.errorKind = 'dispatch';
        throw thrown;
      }
      if (passesContainment(thrown)) {
        // A JSON-RPC error the run answers with (the tool's, or a missing capability), or a stop (a task cancelled);
        // not the input-required signal: a round that asks the client for input is no error.
        threwError = !isInputRequired(thrown);
        if (isMethodError(thrown)) run.errorKind = 'tool';
        throw thrown;
      }
      if (isHttpException(thrown)) {
        run.errorKind = 'tool';
        return (result = httpExceptionResult(thrown));
      }
      // Thrown once the signal fired (the client left, the task ended), it is the run stopping as asked: no one's error.
      run.errorKind = contextFor(run.action).signal.aborted ? undefined : 'tool';
      if (run.errorKind === 'tool')
        publish('mcp:tool:error', () => ({
          mount,
          tool: tool.name,
          ...(run.action !== undefined && { action: run.action }),
          era,
          exception: faultKind(thrown),
          error: faultMessage(thrown),
          fault: thrown,
        }));
      result = faultResult(tool.name, thrown);
    } finally {
      // A gate that refused the data of an action the tool has still names it, as the start did.
      const action = run.action ?? named;
      publish('mcp:tool:stop', () => ({
        mount,
        tool: tool.name,
        ...(action !== undefined && { action }),
        era,
        durationMs: performance.now() - started,
        isError: threwError || result?.isError === true,
        ...(run.errorKind !== undefined && { errorKind: run.errorKind }),
      }));
    }
    return result;
  }
}

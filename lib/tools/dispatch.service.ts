import { performance } from 'node:perf_hooks';

import { Injectable } from '@nestjs/common';

import { faultKind, faultMessage, passesContainment } from '../errors/fault-containment.js';
import type { Era } from '../mcp.constants.js';
import { publish } from '../telemetry/channels.js';
import { httpExceptionResult, isHttpException } from './http-exception-result.js';
import { errorResult, faultResult } from './tool-result.js';
import type { ToolCallResult } from './tool.interfaces.js';
import type { McpContextFactory, ToolRun, WiredTool } from './tool.registry.js';

/** How one call is dispatched: its contexts, its era, what its handler waits for, and whether it was cancelled. */
export interface DispatchedCall {
  readonly contextFor: McpContextFactory;
  readonly era: Era;
  /** See {@link ToolRun.beforeHandler}. */
  readonly beforeHandler?: () => Promise<void>;
  /** Whether the call's signal has fired (its client left, its task was cancelled): asked only when the handler threw. */
  readonly cancelled: () => boolean;
}

/**
 * Dispatches one tools/call to a wired tool (gates, then handler) inside fault containment: a fault becomes a
 * fault diagnostic and one `mcp:tool:error`; a value with the pass mark is rethrown; a Nest `HttpException` is the
 * tool's answer, not a fault (an `isError` result with its status and message); what a handler throws once its
 * call was cancelled is no fault either (no `mcp:tool:error`: it stopped as asked, and nobody reads its answer).
 * Emits `mcp:tool:start` and, after every run, `mcp:tool:stop`.
 */
@Injectable()
export class DispatchService {
  /** Dispatches a call; resolves to a tool result unless a thrown value passes containment. */
  async call(tool: WiredTool, args: Record<string, unknown>, how: DispatchedCall): Promise<ToolCallResult> {
    const era = how.era;
    const named = typeof args.action === 'string' && tool.help.actions.has(args.action) ? args.action : undefined;
    publish('mcp:tool:start', () => ({ tool: tool.name, ...(named !== undefined && { action: named }), era }));
    const started = performance.now();
    const run: ToolRun = { contextFor: how.contextFor, beforeHandler: how.beforeHandler };
    let result: ToolCallResult | undefined;
    try {
      const gated = tool.gate(args);
      if ('refusal' in gated) {
        run.errorKind = 'dispatch';
        result = errorResult(gated.refusal.payload);
      } else {
        run.action = gated.action;
        result = await tool.handle(gated, run);
        if (result.isError === true) run.errorKind ??= 'tool';
      }
    } catch (thrown) {
      if (passesContainment(thrown)) throw thrown;
      run.errorKind = 'tool';
      if (isHttpException(thrown)) return (result = httpExceptionResult(thrown));
      if (!how.cancelled())
        publish('mcp:tool:error', () => ({
          tool: tool.name,
          ...(run.action !== undefined && { action: run.action }),
          era,
          exception: faultKind(thrown),
          error: faultMessage(thrown),
          fault: thrown,
        }));
      result = faultResult(tool.name, thrown);
    } finally {
      publish('mcp:tool:stop', () => ({
        tool: tool.name,
        ...(run.action !== undefined && { action: run.action }),
        era,
        durationMs: performance.now() - started,
        isError: result?.isError === true,
        ...(run.errorKind !== undefined && { errorKind: run.errorKind }),
      }));
    }
    return result;
  }
}

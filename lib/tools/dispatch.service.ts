import { Injectable } from '@nestjs/common';
import { passesContainment } from '../errors/passes-containment.js';
import { faultKind, publish } from '../telemetry/channels.js';
import type { ToolCallResult } from './tool.interfaces.js';
import type { McpContextFactory, ToolRun, WiredTool } from './tool.registry.js';
import { faultMessage, faultResult } from './tool-result.js';

/**
 * Runs one tools/call on a wired-in tool: the tool's own run (the dispatch gates, then the handler), wrapped in
 * fault containment and the tool telemetry.
 *
 * Fault containment, the rule this service owns: anything thrown out of a tool run (an Error, a non-Error value,
 * a rejected promise, from the handler, a hook, or the framework's own code on that path) is answered as an
 * `isError` result with the diagnostic body `{errorType: "tool_fault", tool, exception, message}`, the message
 * bounded and never a stack trace, and emits `mcp:tool:error`; the request and the process carry on. A thrown
 * value carrying the containment pass mark (`passesContainment`: an `McpMethodError` raised on purpose, or the
 * multi round-trip input-required signal) is not a fault: it is rethrown for the method handler to answer.
 *
 * Telemetry: `mcp:tool:start` before the gates (with the action when the call names a declared one),
 * `mcp:tool:stop` after every run (the resolved action, duration, whether the result is an error and who
 * answered it: `dispatch` for a gate or help refusal, `tool` for the tool's own error or a fault). A value that
 * passes containment ends the run without a result: `stop` reports `isError: false` and no `errorKind`.
 * Proven by: test/e2e/tool-faults.e2e-spec.ts, test/e2e/tool-telemetry.e2e-spec.ts
 */
@Injectable()
export class DispatchService {
  /** Runs `tool` with the call's arguments; always resolves to a tool result unless a thrown value passes containment. */
  async call(tool: WiredTool, args: Record<string, unknown>, contextFor: McpContextFactory): Promise<ToolCallResult> {
    const named = typeof args.action === 'string' && tool.help.actions.has(args.action) ? args.action : undefined;
    publish('mcp:tool:start', () => ({ tool: tool.name, ...(named !== undefined && { action: named }) }));
    const started = performance.now();
    const run: ToolRun = { contextFor };
    let result: ToolCallResult | undefined;
    try {
      result = await tool.run(args, run);
    } catch (thrown) {
      if (passesContainment(thrown)) throw thrown;
      run.errorKind = 'tool';
      publish('mcp:tool:error', () => ({
        tool: tool.name,
        ...(run.action !== undefined && { action: run.action }),
        exception: faultKind(thrown),
        error: faultMessage(thrown),
      }));
      result = faultResult(tool.name, thrown);
    } finally {
      publish('mcp:tool:stop', () => ({
        tool: tool.name,
        ...(run.action !== undefined && { action: run.action }),
        durationMs: performance.now() - started,
        isError: result?.isError === true,
        ...(run.errorKind !== undefined && { errorKind: run.errorKind }),
      }));
    }
    return result;
  }
}

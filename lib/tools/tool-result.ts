import { faultKind, faultMessage } from '../errors/fault-containment.js';
import type { ToolCallResult } from './tool.interfaces.js';

/** Whether a value already is MCP tool-result content: an object with a `content` array. */
export function isToolResultShape(value: unknown): value is { content: unknown[]; isError?: unknown; structuredContent?: unknown } & Record<string, unknown> {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}

/** A complete `CallToolResult` with one text block; `isError` only when true. */
export function textResult(text: string, isError: boolean): ToolCallResult {
  if (typeof text !== 'string') throw new TypeError('a tool result must be a value JSON can carry');
  return { resultType: 'complete', ...(isError && { isError: true }), content: [{ type: 'text', text }] };
}

/**
 * The tool dialect's refusal body: an `isError` result carrying one JSON text block. Every dispatch-gate refusal
 * and every help refusal is one of these, its payload naming the refusal under `"error"` and pointing at help.
 */
export function errorResult(payload: Record<string, unknown>): ToolCallResult {
  return textResult(JSON.stringify(payload), true);
}

/**
 * The fault diagnostic: what a fault out of a tool run becomes (fault containment, `dispatch.service.ts`).
 * `errorType` is always `"tool_fault"` (it names the boundary, not what happened there), `tool` the tool,
 * `exception` the fault's kind (an Error's class name, or the JS type of a thrown non-Error), `message` the
 * fault bounded ({@link faultMessage}); never a stack trace.
 */
export function faultResult(tool: string, thrown: unknown): ToolCallResult {
  return errorResult({ errorType: 'tool_fault', tool, exception: faultKind(thrown), message: faultMessage(thrown) });
}

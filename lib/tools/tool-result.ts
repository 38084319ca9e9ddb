import { faultKind, faultMessage } from '../errors/fault-containment.js';
import type { ToolCallResult } from './tool.interfaces.js';

/** Whether a value already is MCP tool-result content: an object with a `content` array. */
export function isToolResultShape(value: unknown): value is { content: unknown[]; isError?: unknown; structuredContent?: unknown } & Record<string, unknown> {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}

/** A complete `CallToolResult` with one text block; `isError` only when true. */
export function textResult(text: string, isError: boolean): ToolCallResult {
  if (typeof text !== 'string') throw new TypeError('a tool result must be a value JSON can carry');
  const content = [{ type: 'text' as const, text }];
  return isError ? { resultType: 'complete', isError: true, content } : { resultType: 'complete', content };
}

/** The tool dialect's refusal body (every gate and help refusal): an `isError` result with one JSON text block. */
export function errorResult(payload: Record<string, unknown>): ToolCallResult {
  return textResult(JSON.stringify(payload), true);
}

/**
 * The fault diagnostic a contained fault becomes: `{errorType: "tool_fault", tool, exception, message}`, the
 * message bounded and never a stack trace. See docs/tools.md ("Fault containment").
 */
export function faultResult(tool: string, thrown: unknown): ToolCallResult {
  return errorResult({ errorType: 'tool_fault', tool, exception: faultKind(thrown), message: faultMessage(thrown) });
}

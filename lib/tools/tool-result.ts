import { faultKind } from '../telemetry/channels.js';
import { bounded } from '../util/bounded.js';
import type { ToolCallResult } from './tool.interfaces.js';

/** Whether a value already is MCP tool-result content: an object with a `content` array. */
export function isToolResultShape(value: unknown): value is { content: unknown[] } & Record<string, unknown> {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}

/**
 * The tool dialect, success side: what a tool run returned becomes a complete `CallToolResult`. MCP content
 * (an object with a `content` array) passes through as the tool wrote it; a string becomes one text block;
 * `undefined` an empty content list; anything else its JSON in one text block. With `structured`, the value
 * also goes out as `structuredContent`.
 */
export function successResult(value: unknown, structured = false): ToolCallResult {
  if (isToolResultShape(value)) return { ...value, resultType: 'complete' };
  if (value === undefined) return { resultType: 'complete', content: [] };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const result: ToolCallResult = { resultType: 'complete', content: [{ type: 'text', text }] };
  if (structured) result.structuredContent = value;
  return result;
}

/** An `isError` tool result carrying one JSON text block: the tool dialect's error payload. */
export function errorResult(payload: Record<string, unknown>): ToolCallResult {
  return { resultType: 'complete', isError: true, content: [{ type: 'text', text: JSON.stringify(payload) }] };
}

/**
 * The fault diagnostic: what a fault out of a tool run becomes (fault containment). `errorType` names the
 * boundary, `exception` the fault's kind (an Error's class name, or the thrown value's type), `message` the
 * fault bounded, never a stack trace.
 */
export function faultResult(tool: string, thrown: unknown): ToolCallResult {
  return errorResult({ errorType: 'tool_fault', tool, exception: faultKind(thrown), message: bounded(thrown, 300) });
}

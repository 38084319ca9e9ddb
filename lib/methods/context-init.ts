import type { McpContextInit } from '../context/mcp-context.js';
import type { EveryField } from '../util/every-field.js';
import type { MethodCall } from './method-handler.interface.js';

/** What a handler adds to the routed call's facts for one context: the tool, resource or prompt, its input channel. */
export type McpContextOwn = Omit<McpContextInit, 'record' | 'headers' | 'request' | 'answer' | 'progress'>;

/**
 * A handler's `McpContext` init: the routed call's record, host request, headers and answer stream, plus what the
 * handler adds. Every field is spelled out, in the order `McpContext.withAction` spells them, so that every context's
 * init has one shape (see CONTRIBUTING, Performance). Proven by: test/methods/context-init.spec.ts
 */
export function contextInit(call: Omit<MethodCall, 'params'>, own: McpContextOwn): McpContextInit {
  return {
    record: call.record,
    headers: call.request.headers,
    request: call.hostRequest,
    answer: call.answer,
    tool: own.tool,
    action: own.action,
    resource: own.resource,
    prompt: own.prompt,
    signal: own.signal,
    inputs: own.inputs,
    task: own.task,
    progress: undefined,
  } satisfies EveryField<McpContextInit>;
}

import { Inject, Injectable } from '@nestjs/common';

import type { CompletionRef, CompletionSource } from '../completion/completion-source.interface.js';
import { MCP_COMPLETION_SOURCES } from '../completion/completion-source.js';
import { McpContext } from '../context/mcp-context.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { ERAS } from '../mcp.constants.js';
import type { Capabilities, CapabilitySource } from '../protocol/capability-source.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { bounded, quoted } from '../util/bounded.js';
import { OFFERED_URI_QUOTED_MAX, didYouMean } from '../util/near-miss.js';
import { contextInit } from './context-init.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/** The most values one completion sends (the spec's bound); a longer list is cut, with `hasMore`. */
const COMPLETION_MAX_VALUES = 100;

/** A completion as sent (MCP `CompleteResult.completion`): at most {@link COMPLETION_MAX_VALUES} values, every value counted in `total`. */
function sent(values: readonly string[]): Record<string, unknown> {
  return { values: values.slice(0, COMPLETION_MAX_VALUES), total: values.length, hasMore: values.length > COMPLETION_MAX_VALUES };
}

/**
 * `completion/complete`: asks the completion sources in order (`COMPLETION_SOURCES`) and sends the first answer,
 * cut to 100 values; a ref no source holds is 400 + -32602. Served, and `completions` advertised, when any source
 * declares a completer; an argument without a completer then completes to no values. An `HttpException` from a
 * completer is its answer (`httpExceptionMethodError`). See docs/prompts.md.
 */
@Injectable()
export class CompletionCompleteHandler implements McpMethodHandler, CapabilitySource {
  readonly method = 'completion/complete' as const;
  readonly eras = ERAS;

  constructor(@Inject(MCP_COMPLETION_SOURCES) private readonly sources: readonly CompletionSource[]) {}

  served(): boolean {
    return this.sources.some((source) => source.completes);
  }

  /** `completions` exactly when the method is served. */
  contribute(into: Capabilities): void {
    if (this.served()) into.completions = {};
  }

  async handle(call: MethodCall): Promise<McpResult> {
    const given = call.params.ref as { type: string; name?: string; uri?: string };
    const ref: CompletionRef = given.type === 'ref/prompt' ? { type: 'ref/prompt', name: given.name! } : { type: 'ref/resource', uri: given.uri! };
    const argument = call.params.argument as { name: string; value: string };
    const context = call.params.context as { arguments?: Record<string, string> } | undefined;
    const ctx = new McpContext(contextInit(call, ref.type === 'ref/prompt' ? { prompt: ref.name } : { resource: ref.uri }));
    const request = { ref, argument: { name: argument.name, value: argument.value }, arguments: { ...context?.arguments }, ctx };
    for (const source of this.sources) {
      const completion = source.complete(request);
      if (completion) return { resultType: 'complete', completion: sent(await completion) };
    }
    const [what, id] = ref.type === 'ref/prompt' ? ['prompt', ref.name] : ['resource or resource template', ref.uri];
    const meant = this.sources.map((source) => source.refMeant(ref)).find((name) => name !== undefined);
    throw new McpMethodError(
      JSON_RPC_CODES.invalidParams,
      `Invalid params: no ${what} ${quoted(id, 100)}${didYouMean(meant, ref.type === 'ref/resource' ? OFFERED_URI_QUOTED_MAX : undefined)} to complete.${this.sources.map((source) => source.refsListed(ref.type)).join('')}`,
      { reason: 'unknown_ref', ref: ref.type === 'ref/prompt' ? { type: ref.type, name: bounded(ref.name, 100) } : { type: ref.type, uri: bounded(ref.uri, 200) } },
      400,
    );
  }
}

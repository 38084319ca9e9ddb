import { Injectable } from '@nestjs/common';

import { McpContext } from '../context/mcp-context.js';
import { answeringHttpExceptions, httpExceptionMethodError } from '../errors/http-exception.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import { ERAS } from '../mcp.constants.js';
import { MrtrRounds } from '../mrtr/mrtr-rounds.js';
import { PromptRegistry } from '../prompts/prompt.registry.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { bounded, quoted } from '../util/bounded.js';
import { didYouMean } from '../util/near-miss.js';
import { contextInit } from './context-init.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';

/**
 * `prompts/get`: an unknown prompt, an undeclared argument or a missing required one is 400 + -32602 (method
 * routing has already refused a value that is not a string); otherwise the prompt's `get()` runs in one MRTR round
 * bound to the prompt name and arguments, so its context may ask the client for input on either era. An
 * `HttpException` from it is its answer (`httpExceptionMethodError`); a return that is no valid `GetPromptResult` is a fault. See docs/prompts.md.
 */
@Injectable()
export class PromptsGetHandler implements McpMethodHandler {
  readonly method = 'prompts/get' as const;
  readonly eras = ERAS;

  constructor(
    private readonly registry: PromptRegistry,
    private readonly rounds: MrtrRounds,
  ) {}

  served(): boolean {
    return this.registry.size > 0;
  }

  async handle(call: MethodCall): Promise<McpResult> {
    const name = call.params.name as string;
    const prompt = this.registry.get(name);
    if (!prompt)
      throw new McpMethodError(
        JSON_RPC_CODES.invalidParams,
        `Invalid params: unknown prompt ${quoted(name, 100)}${didYouMean(this.registry.nearMissOf(name))}. Valid prompts: ${this.registry.listedNames()}.`,
        { reason: 'unknown_prompt', prompt: bounded(name, 100), ...this.registry.namesListed() },
        400,
      );
    const args = { ...((call.params.arguments ?? {}) as Record<string, string>) };
    prompt.checkArguments(args);
    const inputs = await this.rounds.open({ method: this.method, params: call.params, record: call.record, identifying: { name, arguments: args }, answer: call.answer });
    const ctx = new McpContext(contextInit(call, { prompt: name, inputs }));
    return this.rounds.settle(inputs, () =>
      answeringHttpExceptions(
        () => prompt.get(args, ctx),
        (thrown) => httpExceptionMethodError(thrown, { prompt: bounded(name, 100) }),
      ),
    );
  }
}

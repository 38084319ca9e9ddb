import { Injectable } from '@nestjs/common';

import type { CompletionRef, CompletionRequest, CompletionSource } from '../completion/completion-source.interface.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import type { Capabilities, CapabilitySource } from '../protocol/capability-source.js';
import { bounded, quoted } from '../util/bounded.js';
import { NamedRegistry, type NamesListed } from '../util/named-registry.js';
import { didYouMean } from '../util/near-miss.js';
import type { WiredPrompt } from './wired-prompt.js';

/**
 * The wired-in prompts, listed by name. Wire-in is the one validated site: a malformed or duplicate name is a
 * `McpConfigurationError` at module init. Advertises `prompts` when any prompt is wired in, and completes the
 * arguments of its prompts (`ref/prompt`) for `completion/complete`.
 */
@Injectable()
export class PromptRegistry implements CapabilitySource, CompletionSource {
  private readonly prompts = new NamedRegistry<WiredPrompt>('prompt');
  /** Whether a prompt wired in so far declares a completer (`completes`, read on every request). */
  private completesAny = false;

  /** Refuses a malformed name; called before a prompt is built, so later refusals can name it safely. */
  checkName(name: unknown): void {
    this.prompts.checkName(name);
  }

  /** Supplies a prompt; refuses a malformed or duplicate name. */
  wireIn(prompt: WiredPrompt): void {
    this.prompts.checkName(prompt.name);
    this.prompts.add(prompt);
    this.completesAny ||= prompt.completes;
  }

  /** The prompt wired in under `name`, if any (a Map lookup: a caller's `__proto__` finds nothing). */
  get(name: string): WiredPrompt | undefined {
    return this.prompts.get(name);
  }

  /** The prompt an unknown `name` nearly spells, for its refusal ({@link NamedRegistry.nearMissOf}). */
  nearMissOf(name: string): string | undefined {
    return this.prompts.nearMissOf(name);
  }

  /** The prompt names as a refusal spells them for its reader ({@link NamedRegistry.listedNames}). */
  listedNames(): string {
    return this.prompts.listedNames();
  }

  /** The prompt names as a refusal's `data` lists them ({@link NamedRegistry.namesListed}). */
  namesListed(): NamesListed {
    return this.prompts.namesListed();
  }

  /** Every prompt, sorted by name. */
  list(): readonly WiredPrompt[] {
    return this.prompts.list();
  }

  /** How many prompts are wired in. */
  get size(): number {
    return this.prompts.size;
  }

  /** `prompts` when any prompt is wired in, and `logging` (`listChanged` is not this registry's to say). */
  contribute(into: Capabilities): void {
    if (this.prompts.size === 0) return;
    into.prompts ??= {};
    into.logging ??= {}; // a prompt's get() may log
  }

  /** Whether any prompt argument declares a completer. */
  get completes(): boolean {
    return this.completesAny;
  }

  /** Lists its prompts for an unknown `ref/prompt`. */
  refsListed(type: CompletionRef['type']): string {
    return type === 'ref/prompt' && this.prompts.size > 0 ? ` Prompts: ${this.listedNames()}.` : '';
  }

  /** The prompt an unknown `ref/prompt` nearly names. */
  refMeant(ref: CompletionRef): string | undefined {
    return ref.type === 'ref/prompt' ? this.nearMissOf(ref.name) : undefined;
  }

  /**
   * Completes an argument of one of its prompts: every suggestion its completer gives (none without a completer);
   * undefined for a ref that is no prompt of its own; -32602 for an argument the prompt does not declare.
   */
  complete(request: CompletionRequest): Promise<readonly string[]> | undefined {
    if (request.ref.type !== 'ref/prompt') return undefined;
    const prompt = this.prompts.get(request.ref.name);
    if (!prompt) return undefined;
    const { name, value } = request.argument;
    const values = prompt.complete(name, value, { arguments: request.arguments }, request.ctx);
    if (!values)
      throw new McpMethodError(
        JSON_RPC_CODES.invalidParams,
        `Invalid params: prompt "${prompt.name}" has no argument ${quoted(name, 64)}${didYouMean(prompt.argumentMeant(name))} to complete.`,
        { reason: 'unknown_argument', prompt: prompt.name, argument: bounded(name, 64) },
        400,
      );
    return values;
  }
}

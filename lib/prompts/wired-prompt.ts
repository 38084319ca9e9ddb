import { bindCompleter, runCompleter, type McpCompleter, type McpCompletionContext } from '../completion/completer.js';
import type { McpContext } from '../context/mcp-context.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import type { McpResult } from '../protocol/json-rpc.js';
import type { ProtocolShape } from '../protocol/protocol-schema.js';
import { bounded, quoted } from '../util/bounded.js';
import { firstListed } from '../util/first-listed.js';
import { didYouMean, nearMissesOf, offeredNearMisses } from '../util/near-miss.js';
import { promptDefinition } from './prompt-definition.js';
import { promptResult } from './prompt-result.js';
import type { McpPromptArgument, McpPromptHandler, McpPromptOptions } from './prompt.interfaces.js';

/** What building a prompt needs from module init: the protocol's `Prompt` and `GetPromptResult`, compiled once. */
export interface PromptBuildKit {
  readonly definitionShape: ProtocolShape;
  readonly resultShape: ProtocolShape;
}

/** A prompt as module init wired it in. */
export interface WiredPrompt {
  readonly name: string;
  /** Its prompts/list entry. */
  readonly definition: Readonly<Record<string, unknown>>;
  /** Whether any of its arguments declares a completer. */
  readonly completes: boolean;
  /**
   * Refuses a prompts/get's arguments (each already a string) with -32602: an undeclared one, or a required one
   * missing.
   */
  checkArguments(args: Readonly<Record<string, string>>): void;
  /** Runs `get()` and turns its return into a complete `GetPromptResult`. */
  get(args: Record<string, string>, ctx: McpContext): Promise<McpResult>;
  /** The declared argument an undeclared `argument` nearly spells ({@link NearMisses.meant}), for its refusal. */
  argumentMeant(argument: string): string | undefined;
  /** Every suggestion for a declared argument (none without a completer); undefined for an undeclared one. */
  complete(argument: string, value: string, context: McpCompletionContext, ctx: McpContext): Promise<readonly string[]> | undefined;
}

/** How many caller-sent names a refusal lists. */
const LISTED_NAMES = 10;
/** Names as a refusal lists them, each followed by the near miss `meant` offers at its index, if any. */
const names = (list: readonly string[], meant: readonly (string | undefined)[] = []) =>
  firstListed(list, LISTED_NAMES, { spell: (n, i) => quoted(n, 64) + didYouMean(meant[i]), counted: true });

/**
 * Builds a prompt at module init from its checked options and its instance: the published definition, the
 * argument checks prompts/get applies, its handler and its completers.
 */
export function buildPrompt(options: McpPromptOptions, instance: object, kit: PromptBuildKit, where: string): WiredPrompt {
  const name = options.name;
  const get = (instance as Partial<McpPromptHandler>).get;
  if (typeof get !== 'function') throw new McpConfigurationError(where, 'a prompt must implement get(args, ctx)');
  const definition = promptDefinition(options, where, kit.definitionShape);
  const declared = new Map((options.arguments ?? []).map((argument) => [argument.name, argument]));
  const required = [...declared.values()].filter((argument) => argument.required === true).map((argument) => argument.name);
  const completers = new Map(
    [...declared.values()].flatMap((argument) => (argument.complete === undefined ? [] : [[argument.name, completerOf(argument, instance, where)] as const])),
  );

  return {
    name,
    definition,
    completes: completers.size > 0,
    checkArguments(args) {
      const unknown = Object.keys(args).filter((key) => !declared.has(key));
      if (unknown.length) {
        const meant = offeredNearMisses(unknown.slice(0, LISTED_NAMES).map((key) => ({ name: key, among: nearMissesOf(declared), sentIn: args })));
        throw new McpMethodError(
          JSON_RPC_CODES.invalidParams,
          `Invalid params: prompt "${name}" takes no argument ${names(unknown, meant)}${declared.size ? `; it takes ${names([...declared.keys()])}` : ''}.`,
          { reason: 'unknown_arguments', prompt: name, unknown: unknown.slice(0, LISTED_NAMES).map((n) => bounded(n, 64)), arguments: [...declared.keys()] },
          400,
        );
      }
      const missing = required.filter((argument) => !Object.hasOwn(args, argument));
      if (missing.length)
        throw new McpMethodError(
          JSON_RPC_CODES.invalidParams,
          `Invalid params: prompt "${name}" needs argument${missing.length > 1 ? 's' : ''} ${names(missing)}.`,
          { reason: 'missing_arguments', prompt: name, missing },
          400,
        );
    },
    async get(args, ctx) {
      return promptResult(name, await get.call(instance, args, ctx), kit.resultShape);
    },
    argumentMeant(argument) {
      return nearMissesOf(declared).meant(argument);
    },
    complete(argument, value, context, ctx) {
      if (!declared.has(argument)) return undefined;
      const completer = completers.get(argument);
      if (!completer) return Promise.resolve([]);
      return runCompleter(completer, value, context, ctx, `the completer of prompt "${name}", argument "${argument}"`);
    },
  };
}

/** An argument's completer bound to the prompt's instance: its function, or the method of the class it names. */
function completerOf(argument: McpPromptArgument, instance: object, where: string): McpCompleter {
  const completer = bindCompleter(argument.complete, instance);
  if (!completer)
    throw new McpConfigurationError(
      `${where}, argument ${JSON.stringify(argument.name)}`,
      `complete names ${JSON.stringify(argument.complete)}, which is no method of the class`,
    );
  return completer as McpCompleter;
}

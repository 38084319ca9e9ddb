import { McpConfigurationError, got, unknownOptions } from '../errors/mcp-configuration.error.js';
import type { ProtocolShape } from '../protocol/protocol-schema.js';
import { shapeProblems } from '../tools/data-path.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { PROMPT_ARGUMENT_KEYS, PROMPT_OPTION_KEYS, type McpPromptArgument, type McpPromptOptions } from './prompt.interfaces.js';

function checkArgument(argument: unknown, index: number, where: string, seen: Set<string>): void {
  const at = `${where}, arguments[${index}]`;
  if (!isPlainObject(argument)) throw new McpConfigurationError(at, `an argument must be an object with a name${got(argument)}`);
  if (typeof argument.name !== 'string' || argument.name === '') throw new McpConfigurationError(at, `an argument name must be a non-empty string${got(argument.name)}`);
  const named = `${where}, argument ${JSON.stringify(argument.name)}`;
  if (seen.has(argument.name)) throw new McpConfigurationError(named, 'is declared twice (argument names are unique in a prompt)');
  seen.add(argument.name);
  const unknown = unknownOptions(argument, PROMPT_ARGUMENT_KEYS, 'the argument');
  if (unknown) throw new McpConfigurationError(named, unknown);
  for (const key of ['title', 'description'] as const)
    if (argument[key] !== undefined && typeof argument[key] !== 'string') throw new McpConfigurationError(named, `${key} must be a string${got(argument[key])}`);
  if (argument.required !== undefined && typeof argument.required !== 'boolean') throw new McpConfigurationError(named, `required must be a boolean${got(argument.required)}`);
  if (argument.complete !== undefined && typeof argument.complete !== 'function' && typeof argument.complete !== 'string')
    throw new McpConfigurationError(named, `complete must be a function (value, context, ctx) or the name of a method of the class${got(argument.complete)}`);
}

/**
 * Checks what `@McpPrompt` declared, at module init: closed key sets ({@link PROMPT_OPTION_KEYS},
 * {@link PROMPT_ARGUMENT_KEYS}), a non-empty description, well-typed values and unique argument names. The name is
 * the registry's to check, the published definition the protocol schema's ({@link promptDefinition}).
 */
export function checkPromptOptions(options: McpPromptOptions, where: string): void {
  const unknown = unknownOptions(options, PROMPT_OPTION_KEYS, '@McpPrompt');
  if (unknown) throw new McpConfigurationError(where, unknown);
  if (typeof options.description !== 'string' || options.description === '')
    throw new McpConfigurationError(where, `description must be a non-empty string${got(options.description)}`);
  if (options.title !== undefined && typeof options.title !== 'string') throw new McpConfigurationError(where, `title must be a string${got(options.title)}`);
  if (options.icons !== undefined && !Array.isArray(options.icons)) throw new McpConfigurationError(where, `icons must be an array${got(options.icons)}`);
  if (options.arguments === undefined) return;
  if (!Array.isArray(options.arguments)) throw new McpConfigurationError(where, `arguments must be an array${got(options.arguments)}`);
  const seen = new Set<string>();
  options.arguments.forEach((argument, index) => checkArgument(argument, index, where, seen));
}

/**
 * A prompt's prompts/list entry (MCP `Prompt`), built once at module init from checked options: optional keys only
 * when declared, completers left out. One the protocol schema refuses (an icon's `src` that is no URI, say) is a
 * `McpConfigurationError` naming where.
 */
export function promptDefinition(options: McpPromptOptions, where: string, shape: ProtocolShape): Readonly<Record<string, unknown>> {
  const definition: Record<string, unknown> = { name: options.name };
  if (options.title !== undefined) definition.title = options.title;
  definition.description = options.description;
  if (options.arguments !== undefined) definition.arguments = options.arguments.map(argumentDefinition);
  if (options.icons !== undefined) definition.icons = options.icons;
  if (!shape.conforms(definition)) throw new McpConfigurationError(where, `is not a valid MCP Prompt: ${shapeProblems(shape.problems(definition), definition)}`);
  return Object.freeze(definition);
}

function argumentDefinition(argument: McpPromptArgument): Record<string, unknown> {
  const { complete: _complete, ...published } = argument;
  return published;
}

import type { McpHandlerContext } from '../context/mcp-context.js';
import { McpConfigurationError, got } from '../errors/mcp-configuration.error.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { checkPlainArguments, type DataTarget, type GatedCall } from './dispatch-gates.js';
import { handlerResult } from './handler-result.js';
import { collectHeaderAnnotations } from './header-annotation.js';
import { helpPointer } from './help-pointer.js';
import type { InputSchemaDigest } from './input-schema.js';
import { closeSchema, keyNode, schemaOffence } from './key-set.js';
import { readTaskMode } from './task-mode.js';
import { helpHeading, toolDefinition } from './tool-definition.js';
import { readHooks, type ToolBuildKit } from './tool-hooks.js';
import type { JsonSchema, McpToolOptions, ToolCallResult } from './tool.interfaces.js';
import { ValueGate } from './value-gate.js';
import type { ToolRun, WiredTool } from './wired-tool.js';

/**
 * A plain tool's handler: gets the gated arguments and the context, and may return whatever an action may.
 * @publicApi
 */
export interface McpPlainTool {
  /** `args` is typed `object` so a handler may name its own interface or class for the arguments it declared. */
  run(args: object, context: McpHandlerContext): unknown;
}

/**
 * Builds a plain tool at module init: checks its declaration and publishes its input schema with the key-set
 * closure written on it. Its arguments meet the unknown-key and value gates; hints and action context are per
 * action, so it gets neither.
 */
export function buildPlainTool(options: McpToolOptions, instance: object, kit: ToolBuildKit): WiredTool {
  const name = options.name;
  const where = `tool "${name}"`;
  const run = (instance as Partial<McpPlainTool>).run;
  if (typeof run !== 'function') throw new McpConfigurationError(where, 'a plain tool (one with inputSchema) must implement run(args, ctx)');
  // checkToolOptions has seen a plain object here.
  const inputSchema = options.inputSchema as Record<string, unknown>;
  if (inputSchema.type !== 'object') throw new McpConfigurationError(`${where}, inputSchema`, rootTypeOffence(inputSchema));
  const badShape = schemaOffence(inputSchema);
  if (badShape) throw new McpConfigurationError(`${where}, inputSchema`, `is malformed ${badShape}`);
  const published = closeSchema(inputSchema);
  const values = ValueGate.build(kit.compiler, published, `${where}, inputSchema`);
  const output = options.outputSchema ? kit.compiler.compileOutput(options.outputSchema, `${where}, outputSchema`) : undefined;
  const hooks = readHooks(name, instance, output, kit.resultShape);
  const headerAnnotations = collectHeaderAnnotations(name, published);
  const pointer = helpPointer(name);
  const taskMode = readTaskMode(options, where);
  const target: DataTarget = {
    subject: `The arguments object of tool "${name}"`,
    required: [],
    requiredOneOf: [],
    keys: keyNode(inputSchema),
    values,
    digest: plainToolDigest(published),
    pointer,
  };

  return {
    name,
    definition: toolDefinition(options, published),
    headerAnnotations,
    help: {
      index: { tool: name, description: options.description },
      full: Object.assign(
        {},
        helpHeading(options),
        options.annotations !== undefined && { annotations: options.annotations },
        { input_schema: published },
        options.outputSchema !== undefined && { output_schema: options.outputSchema },
      ) as Record<string, unknown>,
      actions: new Map(),
      actionContext: async () => undefined,
    },
    runsTasks: taskMode !== undefined,
    taskMode: () => taskMode,
    gate: (args, numbersInRange) => checkPlainArguments(name, args, target, numbersInRange),
    async handle(call: GatedCall, toolRun: ToolRun): Promise<ToolCallResult> {
      const ctx = toolRun.contextFor();
      return handlerResult(hooks, await run.call(instance, call.data, ctx), undefined, ctx, toolRun);
    },
  };
}

/**
 * The root keywords of a plain tool's published schema, besides `properties` and `required`, that decide which
 * arguments pass: its input_schema digest carries each one present, so a `$ref` in it resolves (`$defs`) and a root
 * of patterns, composition or conditions is not digested as taking nothing.
 */
export const DIGESTED_ROOT_KEYWORDS = [
  '$defs',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependentSchemas',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
] as const;

/** A plain tool's input_schema digest: its properties (closure published), required, no defaults, and the keywords above. */
function plainToolDigest(published: Record<string, unknown>): InputSchemaDigest {
  const digest: Record<string, unknown> & InputSchemaDigest = {
    properties: isPlainObject(published.properties) ? (published.properties as Record<string, JsonSchema>) : {},
    required: Array.isArray(published.required) ? (published.required as string[]) : [],
    defaults: {},
  };
  for (const keyword of DIGESTED_ROOT_KEYWORDS) if (Object.hasOwn(published, keyword)) digest[keyword] = published[keyword];
  return digest;
}

/** Why an input schema's root is refused for lacking `"type": "object"`: what it has instead, and for a composed root (zod's unions), the fix. */
function rootTypeOffence(schema: Record<string, unknown>): string {
  const composed = ['anyOf', 'oneOf', 'allOf', '$ref'].filter((keyword) => Object.hasOwn(schema, keyword));
  if (schema.type !== undefined || composed.length === 0) return `must be a JSON Schema object with "type": "object" at the root${got(schema.type)}`;
  return `must be a JSON Schema object with "type": "object" at the root, got no "type" beside ${composed.join(', ')}; when each of its shapes is an object, write "type": "object" beside ${composed.length > 1 ? 'them' : 'it'}`;
}

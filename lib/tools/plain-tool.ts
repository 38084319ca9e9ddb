import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpContext } from '../context/mcp-context.js';
import { checkPlainArguments, type DataTarget, type GatedCall } from './dispatch-gates.js';
import { handlerResult } from './handler-result.js';
import { collectHeaderAnnotations } from './header-annotation.js';
import { helpPointer } from './help-pointer.js';
import { closeSchema, keyNode, schemaOffence } from './key-set.js';
import type { JsonSchema, McpToolOptions, ToolCallResult } from './tool.interfaces.js';
import { helpHeading, toolDefinition } from './tool-definition.js';
import { readHooks, type ToolBuildKit } from './tool-hooks.js';
import type { ToolRun, WiredTool } from './tool.registry.js';
import { ValueGate } from './value-gate.js';
import { isPlainObject } from '../util/is-plain-object.js';

/**
 * A plain tool's handler: its arguments (as the data-level gates passed them) and the context. It may return
 * anything an action handler may: a value, `ok(...)`/`fail(...)`, or MCP content.
 * @publicApi
 */
export interface McpPlainTool {
  run(args: Record<string, unknown>, context: McpContext): unknown;
}


/**
 * Builds a plain tool at module init: checks its declaration (a `run` method, an input schema with
 * `"type": "object"` at the root that ajv builds with formats asserted, an output schema ajv builds, valid header
 * annotations, hooks that are methods) and returns the wired tool. Its arguments meet the data-level gates an
 * action's data meets: unknown keys at any depth (the key-set closure, published in its listed input schema as
 * `additionalProperties: false`), then every value against the schema. `run` then runs, and its return becomes a
 * result as an action's does (no hints or action context: those are per action).
 */
export function buildPlainTool(options: McpToolOptions, instance: object, kit: ToolBuildKit): WiredTool {
  const name = options.name;
  const where = `tool "${name}"`;
  const run = (instance as Partial<McpPlainTool>).run;
  if (typeof run !== 'function') throw new McpConfigurationError(where, 'a plain tool (one with inputSchema) must implement run(args, ctx)');
  const inputSchema = options.inputSchema!;
  if (inputSchema.type !== 'object') throw new McpConfigurationError(`${where}, inputSchema`, 'must be a JSON Schema object with "type": "object" at the root');
  const badShape = schemaOffence(inputSchema);
  if (badShape) throw new McpConfigurationError(`${where}, inputSchema`, `is malformed ${badShape}`);
  const published = closeSchema(inputSchema);
  const values = ValueGate.build(kit.compiler, published, `${where}, inputSchema`);
  const output = options.outputSchema ? kit.compiler.compile(options.outputSchema, `${where}, outputSchema`) : undefined;
  const hooks = readHooks(name, instance, output, kit.resultShape);
  const headerAnnotations = collectHeaderAnnotations(name, published);
  const pointer = helpPointer(name);
  const target: DataTarget = {
    subject: `The arguments of tool "${name}"`,
    required: [],
    requiredOneOf: [],
    keys: keyNode(inputSchema),
    values,
    digest: {
      properties: isPlainObject(published.properties) ? (published.properties as Record<string, JsonSchema>) : {},
      required: Array.isArray(published.required) ? (published.required as string[]) : [],
      defaults: {},
    },
    pointer,
  };

  return {
    name,
    definition: toolDefinition(options, published),
    headerAnnotations,
    help: {
      index: { tool: name, description: options.description },
      full: {
        ...helpHeading(options),
        ...(options.annotations !== undefined && { annotations: options.annotations }),
        input_schema: published,
        ...(options.outputSchema !== undefined && { output_schema: options.outputSchema }),
      },
      actions: new Map(),
      actionContext: async () => undefined,
    },
    gate: (args) => checkPlainArguments(name, args, target),
    async handle(call: GatedCall, toolRun: ToolRun): Promise<ToolCallResult> {
      const ctx = toolRun.contextFor();
      return handlerResult(hooks, await run.call(instance, call.data, ctx), undefined, ctx);
    },
  };
}

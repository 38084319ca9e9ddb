import type { ValidateFunction } from 'ajv';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { passesContainment } from '../errors/passes-containment.js';
import type { McpContext } from '../context/mcp-context.js';
import { faultKind, publish } from '../telemetry/channels.js';
import { bounded } from '../util/bounded.js';
import type { SchemaCompiler } from '../validation/schema-compiler.js';
import { describeSchemaErrors } from '../validation/schema-problems.js';
import { collectHeaderAnnotations } from './header-annotation.js';
import { toolDefinition } from './tool-definition.js';
import type { McpToolOptions, ToolCallResult } from './tool.interfaces.js';
import { errorResult, faultResult, successResult } from './tool-result.js';
import type { WiredTool } from './tool.registry.js';
import { dataPath } from './data-path.js';

/** A plain tool's handler: what `run` receives and may return. @publicApi */
export interface McpPlainTool {
  run(args: Record<string, unknown>, context: McpContext): unknown;
}

/**
 * Builds a plain tool at module init: checks its declaration (a `run` method, an input schema with
 * `"type": "object"` at the root, schemas ajv can build, valid header annotations) and returns the wired tool
 * whose `call` validates the arguments against the compiled input schema (an `isError` answer listing each
 * problem by data path), runs `run`, contains any fault, and checks structured output against the output schema.
 */
export function buildPlainTool(options: McpToolOptions, instance: object, compiler: SchemaCompiler): WiredTool {
  const name = options.name;
  const where = `tool "${name}"`;
  const run = (instance as Partial<McpPlainTool>).run;
  if (typeof run !== 'function') throw new McpConfigurationError(where, 'a plain tool (one with inputSchema) must implement run(args, ctx)');
  const inputSchema = options.inputSchema!;
  if (typeof inputSchema !== 'object' || inputSchema === null || inputSchema.type !== 'object')
    throw new McpConfigurationError(`${where}, inputSchema`, 'must be a JSON Schema object with "type": "object" at the root');
  const validateInput = compiler.compile(inputSchema, `${where}, inputSchema`);
  const validateOutput = options.outputSchema ? compiler.compile(options.outputSchema, `${where}, outputSchema`) : undefined;
  const headerAnnotations = collectHeaderAnnotations(name, inputSchema);
  const definition = toolDefinition(options, inputSchema);

  return {
    name,
    definition,
    headerAnnotations,
    async call(args: Record<string, unknown>, context: McpContext): Promise<ToolCallResult> {
      publish('mcp:tool:start', () => ({ tool: name }));
      const started = performance.now();
      let result: ToolCallResult;
      let errorKind: 'dispatch' | 'tool' | undefined;
      if (!validateInput(args)) {
        errorKind = 'dispatch';
        result = invalidArguments(name, validateInput);
      } else {
        try {
          const value = await run.call(instance, args, context);
          result = validateOutput ? structured(name, value, validateOutput) : successResult(value);
          if (result.isError === true) errorKind = 'tool';
        } catch (thrown) {
          if (passesContainment(thrown)) throw thrown;
          publish('mcp:tool:error', () => ({ tool: name, exception: faultKind(thrown), error: bounded(thrown, 300) }));
          errorKind = 'tool';
          result = faultResult(name, thrown);
        }
      }
      publish('mcp:tool:stop', () => ({ tool: name, durationMs: performance.now() - started, isError: errorKind !== undefined, errorKind }));
      return result;
    },
  };
}

function invalidArguments(tool: string, validate: ValidateFunction): ToolCallResult {
  const problems = describeSchemaErrors(validate.errors);
  return errorResult({
    error: 'invalid_arguments',
    message: `The arguments do not match the input schema of tool "${tool}".`,
    invalid_count: problems.length,
    invalid: problems.slice(0, 10).map((p) => ({ path: dataPath(p.path), problem: p.problem })),
  });
}

function structured(tool: string, value: unknown, validate: ValidateFunction): ToolCallResult {
  const result = successResult(value, true);
  if (!('structuredContent' in result) || validate(result.structuredContent)) return result;
  throw new Error(`tool "${tool}" returned structured content that does not match its output schema`);
}

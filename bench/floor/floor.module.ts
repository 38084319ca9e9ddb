// The floor: a bare Nest 12 `@Post('mcp')` route answering a fixed JSON-RPC result, no MCP layer at all; the
// checking floor: the same, checking a call's arguments against its tool's input schema first.
import { Body, Controller, HttpCode, Module, Post, type DynamicModule } from '@nestjs/common';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

import {
  ECHO_INPUT_SCHEMA,
  ECHO_TEXT,
  PROGRESS_DONE_TEXT,
  VALID_TEXT,
  VALIDATE_INPUT_SCHEMA,
  fillerCount,
  fillerToolDefinitions,
  type ToolDefinition,
} from '../common/bench-data.js';

/** The parts of a JSON-RPC request the floor reads to pick its fixed answer. */
interface FloorRequest {
  id?: string | number | null;
  method?: string;
  params?: { name?: string; arguments?: unknown };
}

/** ajv-formats' plugin: a CommonJS module, whose function is the module itself under ESM. */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** A fixed `tools/call` result with one text content. */
function textResult(text: string): Record<string, unknown> {
  return { resultType: 'complete', content: [{ type: 'text', text }] };
}

/**
 * The fixed results, built once: `tools/list` lists `echo`, `validate` and generated tools up to `tools` in all (as
 * the bench servers do), `tools/call` answers by tool name what the tool would answer for the benchmark's arguments.
 */
function fixedResults(tools: number): {
  listed: ToolDefinition[];
  list: Record<string, unknown>;
  calls: Map<string, Record<string, unknown>>;
  fallback: Record<string, unknown>;
} {
  const listed: ToolDefinition[] = [
    { name: 'echo', description: 'Echoes the given text back.', inputSchema: ECHO_INPUT_SCHEMA },
    { name: 'validate', description: 'Validates a user record against its schema.', inputSchema: VALIDATE_INPUT_SCHEMA },
    ...fillerToolDefinitions(fillerCount(tools, 2)),
  ];
  const echo = textResult(ECHO_TEXT);
  const calls = new Map([
    ['echo', echo],
    ['validate', textResult(VALID_TEXT)],
    ['progress', textResult(PROGRESS_DONE_TEXT)],
  ]);
  return { listed, list: { resultType: 'complete', tools: listed }, calls, fallback: echo };
}

/**
 * The input check of each listed tool, by name: one ajv instance (JSON Schema 2020-12, ajv-formats' formats,
 * ajv's defaults otherwise), every schema compiled once when the module is built. The cheapest common way to meet
 * the MCP spec's "servers MUST validate all tool inputs".
 */
function inputChecks(listed: readonly ToolDefinition[]): Map<string, ValidateFunction> {
  const ajv = addFormats(new Ajv2020());
  return new Map(listed.map((tool) => [tool.name, ajv.compile(tool.inputSchema)]));
}

/** A tool error result naming why the arguments were refused. */
function refusedArguments(check: ValidateFunction): Record<string, unknown> {
  return { resultType: 'complete', content: [{ type: 'text', text: `Invalid arguments: ${check.errors?.[0]?.instancePath} ${check.errors?.[0]?.message}` }], isError: true };
}

/**
 * The floor module, listing `tools` tools in its fixed `tools/list` answer (at least echo and validate); with
 * `checksArguments`, the checking floor: a `tools/call` whose arguments fail its tool's input schema gets a tool
 * error result instead of the fixed one.
 */
export function floorModule(tools = 0, checksArguments = false): DynamicModule {
  const results = fixedResults(tools);
  const checks = checksArguments ? inputChecks(results.listed) : undefined;

  /** POST /mcp: the fixed result for the request's method and tool name, under the request's id. */
  @Controller('mcp')
  class FloorController {
    @Post()
    @HttpCode(200)
    answer(@Body() body: FloorRequest): Record<string, unknown> {
      const check = body.method === 'tools/call' ? checks?.get(body.params?.name ?? '') : undefined;
      if (check && !check(body.params?.arguments)) return { jsonrpc: '2.0', id: body.id ?? null, result: refusedArguments(check) };
      const result = body.method === 'tools/list' ? results.list : (results.calls.get(body.params?.name ?? '') ?? results.fallback);
      return { jsonrpc: '2.0', id: body.id ?? null, result };
    }
  }

  return { module: FloorModule, controllers: [FloorController] };
}

/** The class behind {@link floorModule}. */
@Module({})
export class FloorModule {}

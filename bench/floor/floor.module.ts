// The floor: a bare Nest 12 `@Post('mcp')` route answering a fixed JSON-RPC result, no MCP layer at all.
import { Body, Controller, HttpCode, Module, Post, type DynamicModule } from '@nestjs/common';

import { ECHO_INPUT_SCHEMA, ECHO_TEXT, PROGRESS_DONE_TEXT, VALID_TEXT, VALIDATE_INPUT_SCHEMA, fillerCount, fillerToolDefinitions } from '../common/bench-data.js';

/** The parts of a JSON-RPC request the floor reads to pick its fixed answer. */
interface FloorRequest {
  id?: string | number | null;
  method?: string;
  params?: { name?: string };
}

/** A fixed `tools/call` result with one text content. */
function textResult(text: string): Record<string, unknown> {
  return { resultType: 'complete', content: [{ type: 'text', text }] };
}

/**
 * The fixed results, built once: `tools/list` lists `echo`, `validate` and generated tools up to `tools` in all (as
 * the bench servers do), `tools/call` answers by tool name what the tool would answer for the benchmark's arguments.
 */
function fixedResults(tools: number): { list: Record<string, unknown>; calls: Map<string, Record<string, unknown>>; fallback: Record<string, unknown> } {
  const listed = [
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
  return { list: { resultType: 'complete', tools: listed }, calls, fallback: echo };
}

/** The floor module, listing `tools` tools in its fixed `tools/list` answer (at least echo and validate). */
export function floorModule(tools = 0): DynamicModule {
  const results = fixedResults(tools);

  /** POST /mcp: the fixed result for the request's method and tool name, under the request's id. */
  @Controller('mcp')
  class FloorController {
    @Post()
    @HttpCode(200)
    answer(@Body() body: FloorRequest): Record<string, unknown> {
      const result = body.method === 'tools/list' ? results.list : (results.calls.get(body.params?.name ?? '') ?? results.fallback);
      return { jsonrpc: '2.0', id: body.id ?? null, result };
    }
  }

  return { module: FloorModule, controllers: [FloorController] };
}

/** The class behind {@link floorModule}. */
@Module({})
export class FloorModule {}

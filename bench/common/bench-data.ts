// What every benchmarked server shares: the tools' names and input schemas, the texts they answer, and the
// environment knobs the servers read. The bench app, the floors and the SDK server all import it.
import validateInputSchema from '../data/validate-input.schema.json' with { type: 'json' };

/** A JSON Schema object, as the servers take it. */
export type JsonSchemaObject = Record<string, unknown>;

/** The text every `echo` request sends (and a floor answers). */
export const ECHO_TEXT = 'hello from the benchmark';

/** The `echo` tool's input: one required string. */
export const ECHO_INPUT_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: { text: { type: 'string', description: 'The text to echo' } },
  required: ['text'],
  additionalProperties: false,
};

/** The `validate` tool's input (bench/data/validate-input.schema.json): 20 properties, nested objects, formats. */
export const VALIDATE_INPUT_SCHEMA: JsonSchemaObject = validateInputSchema;

/** The text `validate` answers for arguments its schema accepts. */
export const VALID_TEXT = 'valid';

/** The text `progress` answers once its notifications are sent. */
export const PROGRESS_DONE_TEXT = 'progress done';

/** How many progress notifications the `progress` tool sends before its result. */
export const PROGRESS_STEPS = 3;

/** One tool definition as a list shows it: name, description, input schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
}

/**
 * `count` generated tool definitions (`tool_000` …), each with a small realistic input schema: the extra tools of
 * the `tools/list` workload (`BENCH_TOOLS`). Every server builds the same ones.
 */
export function fillerToolDefinitions(count: number): ToolDefinition[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${String(index).padStart(3, '0')}`,
    description: `Generated tool number ${index}: looks an item up by id and returns its fields.`,
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'The item id' },
        fields: { type: 'array', items: { type: 'string' }, maxItems: 10, description: 'Fields to return' },
        limit: { type: 'integer', minimum: 1, maximum: 100 },
      },
      required: ['id'],
      additionalProperties: false,
    },
  }));
}

/** How many generated tools fill a server with `own` tools up to `total` registered tools. */
export function fillerCount(total: number, own: number): number {
  return Math.max(0, total - own);
}

/** What a server process reads from its environment. */
export interface ServerEnv {
  /** The TCP port to listen on (`PORT`, default 3000). */
  port: number;
  /** The address to listen on (`HOST`, default 127.0.0.1). */
  host: string;
  /** `BENCH_ADAPTER=fastify` runs a Nest server on @nestjs/platform-fastify; Express otherwise. */
  adapter: 'express' | 'fastify';
  /** How many tools to register in all (`BENCH_TOOLS`): generated ones fill up after the server's own; 0: its own only. */
  tools: number;
  /** `BENCH_FLOOR_CHECKS=1`: the floor checks each call's arguments against its tool's input schema (the checking floor). */
  checksArguments: boolean;
}

/** Reads {@link ServerEnv} from `process.env`. */
export function serverEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    adapter: env.BENCH_ADAPTER === 'fastify' ? 'fastify' : 'express',
    tools: Number(env.BENCH_TOOLS ?? 0),
    checksArguments: env.BENCH_FLOOR_CHECKS === '1',
  };
}

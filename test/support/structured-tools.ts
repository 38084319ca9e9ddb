import { McpTool, type McpPlainTool } from '../../lib/index.js';

const NO_ARGS = { type: 'object', properties: {} } as const;

/** Structured output whose root is an array: any JSON Schema may be an output schema on 2026-07-28. */
@McpTool({ name: 'primes', description: 'The first primes.', inputSchema: NO_ARGS, outputSchema: { type: 'array', items: { type: 'integer' } } })
export class PrimesTool implements McpPlainTool {
  run() {
    return [2, 3, 5];
  }
}

/** Structured output whose root is an object: what every revision allows. */
@McpTool({ name: 'total', description: 'A total.', inputSchema: NO_ARGS, outputSchema: { type: 'object', properties: { total: { type: 'integer' } } } })
export class TotalTool implements McpPlainTool {
  run() {
    return { total: 3 };
  }
}

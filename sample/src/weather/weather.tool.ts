import { McpTool, quoted, type McpContext, type McpPlainTool } from '../../../lib/index.js';

/** Made-up conditions per region (a Map: a region named "constructor" finds nothing, not Object's function). */
const CONDITIONS: ReadonlyMap<string, string> = new Map([
  ['eu-west', 'drizzle, 14 °C'],
  ['us-east', 'sunny, 22 °C'],
  ['ap-south', 'humid, 31 °C'],
]);

/**
 * A plain tool with a header annotation: `region` carries `x-mcp-header: "Region"`, so a conforming client
 * mirrors it into an `Mcp-Param-Region` header (a load balancer can route on it) and the server refuses a call
 * whose header is missing or differs from the body (400 + -32020). Header values are visible to intermediaries:
 * never annotate secrets or personal data.
 */
@McpTool({
  name: 'weather',
  description: 'Current weather for a region (made-up data).',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', maxLength: 64, description: 'Region id, e.g. eu-west', 'x-mcp-header': 'Region' },
      units: { type: 'string', enum: ['metric'], description: 'Units (metric only)' },
    },
    required: ['region'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
})
export class WeatherTool implements McpPlainTool {
  /** Answers with the region's conditions, or says the region is unknown. */
  run(args: { region: string }, _ctx: McpContext): string {
    const conditions = CONDITIONS.get(args.region);
    return conditions ? `${args.region}: ${conditions}` : `No weather for region ${quoted(args.region)}; known: ${[...CONDITIONS.keys()].join(', ')}.`;
  }
}

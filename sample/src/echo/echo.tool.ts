import { McpTool, type McpContext, type McpPlainTool } from '../../../lib/index.js';

/** A plain tool: its own input schema and one `run`. */
@McpTool({
  name: 'echo',
  description: 'Echoes the given text back.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to echo' } },
    required: ['text'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
})
export class EchoTool implements McpPlainTool {
  run(args: { text: string }, _ctx: McpContext): string {
    return args.text;
  }
}

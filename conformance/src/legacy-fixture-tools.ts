import { McpTool, type McpContext, type McpPlainTool } from '../../lib/index.js';

/** Tools the 2025-11-25 scenarios call (they work on the modern era too, through MRTR). */
const NO_ARGS = { type: 'object', properties: {} } as const;
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const elicited = (answer: { action: string; content?: unknown }) => `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;

@McpTool({ name: 'test_tool_with_logging', description: 'Sends three info log messages, 50 ms apart.', inputSchema: NO_ARGS })
export class LegacyLoggingTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    ctx.log.info('Tool execution started');
    await pause(50);
    ctx.log.info('Tool processing data');
    await pause(50);
    ctx.log.info('Tool execution completed');
    return 'Logging tool completed.';
  }
}

@McpTool({
  name: 'test_sampling',
  description: 'Asks the client model to answer a prompt.',
  inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
})
export class SamplingTool implements McpPlainTool {
  async run(args: { prompt: string }, ctx: McpContext) {
    const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }], maxTokens: 100 });
    const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    return `LLM response: ${content && typeof content.text === 'string' ? content.text : '(no text)'}`;
  }
}

@McpTool({
  name: 'test_elicitation',
  description: 'Asks the user for a username and an email address.',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
})
export class ElicitationTool implements McpPlainTool {
  async run(args: { message: string }, ctx: McpContext) {
    const answer = await ctx.elicit({
      message: args.message,
      requestedSchema: {
        type: 'object',
        properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
        required: ['username', 'email'],
      },
    });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }
}

@McpTool({ name: 'test_elicitation_sep1034_defaults', description: 'Asks for values of every primitive type, each with a default.', inputSchema: NO_ARGS })
export class ElicitationDefaultsTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    return elicited(
      await ctx.elicit({
        message: 'Review these values.',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
        },
      }),
    );
  }
}

@McpTool({ name: 'test_elicitation_sep1330_enums', description: 'Asks with every enum variant.', inputSchema: NO_ARGS })
export class ElicitationEnumsTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    return elicited(
      await ctx.elicit({
        message: 'Pick some options.',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      }),
    );
  }
}

/** The 2025-era fixture tools. */
export const LEGACY_FIXTURE_TOOLS = [LegacyLoggingTool, SamplingTool, ElicitationTool, ElicitationDefaultsTool, ElicitationEnumsTool];

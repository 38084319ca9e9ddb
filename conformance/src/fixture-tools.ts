import { McpMethodError, McpTool, JSON_RPC_CODES, type McpContext, type McpPlainTool } from '../../lib/index.js';

/** Tools whose only input is nothing: `{type: "object", properties: {}}`, absent arguments accepted. */
const NO_ARGS = { type: 'object', properties: {} } as const;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

@McpTool({ name: 'test_simple_text', description: 'Returns a simple text response.', inputSchema: NO_ARGS })
export class SimpleTextTool implements McpPlainTool {
  run() {
    return 'This is a simple text response for testing.';
  }
}

@McpTool({ name: 'test_image_content', description: 'Returns an image.', inputSchema: NO_ARGS })
export class ImageContentTool implements McpPlainTool {
  run() {
    return { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] };
  }
}

@McpTool({ name: 'test_audio_content', description: 'Returns audio.', inputSchema: NO_ARGS })
export class AudioContentTool implements McpPlainTool {
  run() {
    return { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] };
  }
}

@McpTool({ name: 'test_embedded_resource', description: 'Returns an embedded resource.', inputSchema: NO_ARGS })
export class EmbeddedResourceTool implements McpPlainTool {
  run() {
    return {
      content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
    };
  }
}

@McpTool({ name: 'test_multiple_content_types', description: 'Returns text, an image and a resource.', inputSchema: NO_ARGS })
export class MultipleContentTypesTool implements McpPlainTool {
  run() {
    return {
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
      ],
    };
  }
}

@McpTool({ name: 'test_error_handling', description: 'Always answers with a tool error.', inputSchema: NO_ARGS })
export class ErrorHandlingTool implements McpPlainTool {
  run() {
    return { isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] };
  }
}

@McpTool({ name: 'test_tool_with_progress', description: 'Reports progress 0, 50, 100 of 100.', inputSchema: NO_ARGS })
export class ProgressTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    for (const step of [0, 50, 100]) {
      ctx.progress(step, 100, `step ${step}`);
      if (step < 100) await sleep(50, ctx.signal);
    }
    return 'Progress complete.';
  }
}

@McpTool({ name: 'test_logging_tool', description: 'Logs at info level through the request logger.', inputSchema: NO_ARGS })
export class LoggingTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext) {
    ctx.log.info('test_logging_tool started');
    ctx.log.debug({ detail: 'debug detail' });
    return 'Logged.';
  }
}

@McpTool({ name: 'test_missing_capability', description: 'Needs the client sampling capability.', inputSchema: NO_ARGS })
export class MissingCapabilityTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }], maxTokens: 20 }, { key: 'hello' });
    return `The model said: ${answer.content && 'text' in answer.content ? answer.content.text : '(no text)'}`;
  }
}

@McpTool({ name: 'test_streaming_elicitation', description: 'A plain call for a client with elicitation.', inputSchema: NO_ARGS })
export class StreamingElicitationTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext) {
    if (!('elicitation' in ctx.clientCapabilities))
      throw new McpMethodError(
        JSON_RPC_CODES.missingRequiredClientCapability,
        'This tool needs the elicitation capability.',
        { requiredCapabilities: { elicitation: {} } },
        400,
      );
    return 'Streaming elicitation tool answered.';
  }
}

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;

@McpTool({ name: 'test_input_required_result_elicitation', description: 'Asks for your name (MRTR elicitation).', inputSchema: NO_ARGS })
export class MrtrElicitationTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const answer = await ctx.elicit({ message: 'What is your name?', requestedSchema: NAME_FORM }, { key: 'user_name' });
    if (answer.action !== 'accept' || typeof answer.content?.name !== 'string') return { isError: true, content: [{ type: 'text', text: 'No name given.' }] };
    return `Hello, ${answer.content.name}!`;
  }
}

@McpTool({ name: 'test_input_required_result_sampling', description: 'Asks the client model a question (MRTR sampling).', inputSchema: NO_ARGS })
export class MrtrSamplingTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const answer = await ctx.sample(
      { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 },
      { key: 'capital_question' },
    );
    return `The model answered: ${JSON.stringify(answer.content)}`;
  }
}

@McpTool({ name: 'test_input_required_result_list_roots', description: 'Lists the client roots (MRTR roots).', inputSchema: NO_ARGS })
export class MrtrListRootsTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const roots = await ctx.listRoots({ key: 'client_roots' });
    return `Roots: ${roots.map((r) => r.uri).join(', ')}`;
  }
}

@McpTool({ name: 'test_input_required_result_request_state', description: 'Asks for a confirmation, keeping state (MRTR).', inputSchema: NO_ARGS })
export class MrtrRequestStateTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    ctx.state ??= { started: true };
    const answer = await ctx.elicit(
      { message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
      { key: 'confirm' },
    );
    return answer.action === 'accept' && answer.content?.ok === true ? 'state-ok: confirmed' : 'state-ok: not confirmed';
  }
}

@McpTool({ name: 'test_input_required_result_multiple_inputs', description: 'Asks for elicitation, sampling and roots at once (MRTR).', inputSchema: NO_ARGS })
export class MrtrMultipleInputsTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    ctx.state ??= { asked: ['user_name', 'greeting', 'client_roots'] };
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit({ message: 'What is your name?', requestedSchema: NAME_FORM }, { key: 'user_name' }),
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Write a greeting.' } }], maxTokens: 50 }, { key: 'greeting' }),
      ctx.listRoots({ key: 'client_roots' }),
    ]);
    return `name: ${JSON.stringify(name.content)}, greeting: ${JSON.stringify(greeting.content)}, roots: ${roots.length}`;
  }
}

@McpTool({ name: 'test_input_required_result_multi_round', description: 'Two questions in two rounds (MRTR).', inputSchema: NO_ARGS })
export class MrtrMultiRoundTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    ctx.state ??= { round: 1 };
    const name = await ctx.elicit({ message: 'Step 1: What is your name?', requestedSchema: NAME_FORM }, { key: 'step1' });
    ctx.state = { round: 2 };
    const color = await ctx.elicit(
      { message: 'Step 2: What is your favorite color?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] } },
      { key: 'step2' },
    );
    return `${JSON.stringify(name.content)} likes ${JSON.stringify(color.content)}`;
  }
}

@McpTool({ name: 'test_input_required_result_tampered_state', description: 'Asks for a confirmation under a sealed state (MRTR).', inputSchema: NO_ARGS })
export class MrtrTamperedStateTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    ctx.state ??= { sealed: true };
    const answer = await ctx.elicit(
      { message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
      { key: 'confirm' },
    );
    return `confirmed: ${answer.action}`;
  }
}

@McpTool({ name: 'test_input_required_result_capabilities', description: 'Asks only for what the client declared (MRTR).', inputSchema: NO_ARGS })
export class MrtrCapabilitiesTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const caps = ctx.clientCapabilities;
    const asks: Promise<unknown>[] = [];
    if ('elicitation' in caps) asks.push(ctx.elicit({ message: 'What is your name?', requestedSchema: NAME_FORM }, { key: 'user_name' }));
    if ('sampling' in caps) asks.push(ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi.' } }], maxTokens: 20 }, { key: 'greeting' }));
    if ('roots' in caps) asks.push(ctx.listRoots({ key: 'client_roots' }));
    await Promise.all(asks);
    return `answered ${asks.length} input request(s)`;
  }
}

@McpTool({
  name: 'test_x_mcp_header',
  description: 'Mirrors region into Mcp-Param-Region.',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', description: 'mirrored into Mcp-Param-Region', 'x-mcp-header': 'Region' },
      level: { type: 'integer', description: 'non-mirrored argument' },
    },
  },
})
export class XMcpHeaderTool implements McpPlainTool {
  /** Answers with the arguments it received (the header-binding tests read them back). */
  run(args: Record<string, unknown>) {
    return { received: args };
  }
}

@McpTool({
  name: 'json_schema_2020_12_tool',
  description: 'Declares a JSON Schema 2020-12 input schema.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  },
})
export class JsonSchema2020Tool implements McpPlainTool {
  run() {
    return 'Schema accepted.';
  }
}

/** Every tool of the fixture, in one list for the module. */
export const FIXTURE_TOOLS = [
  SimpleTextTool,
  ImageContentTool,
  AudioContentTool,
  EmbeddedResourceTool,
  MultipleContentTypesTool,
  ErrorHandlingTool,
  ProgressTool,
  LoggingTool,
  MissingCapabilityTool,
  StreamingElicitationTool,
  MrtrElicitationTool,
  MrtrSamplingTool,
  MrtrListRootsTool,
  MrtrRequestStateTool,
  MrtrMultipleInputsTool,
  MrtrMultiRoundTool,
  MrtrTamperedStateTool,
  MrtrCapabilitiesTool,
  XMcpHeaderTool,
  JsonSchema2020Tool,
];

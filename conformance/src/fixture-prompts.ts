import { McpPrompt, type McpContext, type McpPromptHandler } from '../../lib/index.js';

/** Prompts the conformance suite gets, lists and completes (both eras). */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** What `arg1` of test_prompt_with_arguments completes from: those starting with what was typed. */
const ARG1_SUGGESTIONS = ['test', 'testValue1', 'testValue2', 'value'];

@McpPrompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments.' })
export class SimplePrompt implements McpPromptHandler {
  get() {
    return 'This is a simple prompt for testing.';
  }
}

@McpPrompt({
  name: 'test_prompt_with_arguments',
  description: 'A prompt with two required arguments.',
  arguments: [
    { name: 'arg1', description: 'First test argument', required: true, complete: (value) => ARG1_SUGGESTIONS.filter((s) => s.startsWith(value)) },
    { name: 'arg2', description: 'Second test argument', required: true },
  ],
})
export class PromptWithArguments implements McpPromptHandler {
  get(args: Record<string, string>) {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }
}

@McpPrompt({
  name: 'test_prompt_with_embedded_resource',
  description: 'A prompt embedding the resource it is given.',
  arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
})
export class PromptWithEmbeddedResource implements McpPromptHandler {
  get(args: Record<string, string>) {
    return [
      { role: 'user', content: { type: 'resource', resource: { uri: args.resourceUri!, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ] as const;
  }
}

@McpPrompt({ name: 'test_prompt_with_image', description: 'A prompt with an image.' })
export class PromptWithImage implements McpPromptHandler {
  get() {
    return [
      { role: 'user', content: { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ] as const;
  }
}

@McpPrompt({ name: 'test_input_required_result_prompt', description: 'Asks which context to use, then builds the prompt (MRTR).' })
export class InputRequiredPrompt implements McpPromptHandler {
  async get(_args: Record<string, string>, ctx: McpContext) {
    const answer = await ctx.elicit(
      { message: 'What context should the prompt use?', requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] } },
      { key: 'user_context' },
    );
    const context = answer.action === 'accept' && typeof answer.content?.context === 'string' ? answer.content.context : 'no context given';
    return {
      description: 'A prompt built from the context the user gave.',
      messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }],
    } as const;
  }
}

/** Every prompt of the fixture, in one list for the module. */
export const FIXTURE_PROMPTS = [SimplePrompt, PromptWithArguments, PromptWithEmbeddedResource, PromptWithImage, InputRequiredPrompt];

import { ForbiddenException, Injectable } from '@nestjs/common';
import { of } from 'rxjs';

import { McpPrompt, type McpContext, type McpPromptHandler } from '../../lib/index.js';

/** Prompts the prompt and completion tests get, list and complete. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
export const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/** The names `greet`'s `name` argument completes from. */
export const PEOPLE = ['Ada', 'Alan', 'Barbara', 'Grace'];

/** A service a prompt has injected, to prove prompts are built through Nest DI. */
@Injectable()
export class Salutations {
  readonly formal = 'Good day';
  readonly styles = ['casual', 'formal'];
}

@McpPrompt({
  name: 'greet',
  title: 'Greeting',
  description: 'Greets someone.',
  arguments: [
    { name: 'name', title: 'Name', description: 'Who to greet', required: true, complete: (value) => PEOPLE.filter((p) => p.toLowerCase().startsWith(value.toLowerCase())) },
    { name: 'style', description: 'formal or casual', complete: 'styles' },
  ],
  icons: [{ src: 'https://example.com/greet.png', mimeType: 'image/png', sizes: ['48x48'] }],
})
export class GreetPrompt implements McpPromptHandler {
  constructor(private readonly salutations: Salutations) {}

  /** The completer of `style`, named in the declaration: a method, so it reaches what is injected. */
  styles(value: string): string[] {
    return this.salutations.styles.filter((style) => style.startsWith(value));
  }

  get(args: Record<string, string>, ctx: McpContext) {
    const salutation = args.style === 'formal' ? this.salutations.formal : 'Hi';
    return `${salutation}, ${args.name}! (prompt ${ctx.prompt})`;
  }
}

@McpPrompt({
  name: 'contents',
  description: 'One message of the content kind asked for.',
  arguments: [{ name: 'kind', required: true, complete: () => ['text', 'image', 'audio', 'resource', 'blob', 'link', 'described', 'message'] }],
})
export class ContentsPrompt implements McpPromptHandler {
  get(args: Record<string, string>) {
    switch (args.kind) {
      case 'image':
        return [{ role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } }] as const;
      case 'audio':
        return [{ role: 'assistant', content: { type: 'audio', data: WAV, mimeType: 'audio/wav' } }] as const;
      case 'resource':
        return [{ role: 'user', content: { type: 'resource', resource: { uri: 'test://notes/1', mimeType: 'text/plain', text: 'Note one.' } } }] as const;
      case 'blob':
        return [{ role: 'user', content: { type: 'resource', resource: { uri: 'test://logo', mimeType: 'image/png', blob: PNG } } }] as const;
      case 'link':
        return [{ role: 'user', content: { type: 'resource_link', uri: 'test://notes/2', name: 'note-2' } }] as const;
      case 'described':
        return { description: 'A described prompt', messages: [{ role: 'user', content: { type: 'text', text: 'described' } }] } as const;
      case 'meta':
        return { messages: [{ role: 'user', content: { type: 'text', text: 'with meta' } }], _meta: { source: 'test' } } as const;
      case 'message':
        return { role: 'assistant', content: { type: 'text', text: 'one message' } } as const;
      default:
        return 'plain text';
    }
  }
}

@McpPrompt({ name: 'malformed', description: 'Returns what is not a prompt, as told.', arguments: [{ name: 'what', required: true }] })
export class MalformedPrompt implements McpPromptHandler {
  get(args: Record<string, string>) {
    const returns: Record<string, unknown> = {
      role: { role: 'robot', content: { type: 'text', text: 'x' } },
      contentless: { role: 'user', text: 'x' },
      number: 42,
      huge: 10n ** 100n,
      extra: { messages: [], resultType: 'input_required' },
      image: [{ role: 'user', content: { type: 'image', data: PNG } }],
      bigint: [{ role: 'user', content: { type: 'text', text: 1n } }],
      observable: of('Hello'),
      map: new Map([['role', 'user']]),
      set: new Set(['Hello']),
    };
    return returns[args.what] as never;
  }
}

@McpPrompt({ name: 'throws', description: 'Faults.' })
export class ThrowingPrompt implements McpPromptHandler {
  get(): never {
    throw new Error('prompt backend down');
  }
}

/** What the `confirm_topic` prompt saw on each execution (re-execution shows as several entries). */
export const promptRuns: string[] = [];

@McpPrompt({ name: 'confirm_topic', description: 'Asks which topic to write about, then writes the prompt.', arguments: [{ name: 'audience', required: false }] })
export class ConfirmTopicPrompt implements McpPromptHandler {
  async get(args: Record<string, string>, ctx: McpContext) {
    promptRuns.push(`run:${args.audience ?? '-'}`);
    const answer = await ctx.elicit(
      { message: 'Which topic?', requestedSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] } },
      { key: 'topic' },
    );
    if (answer.action !== 'accept') return `No topic (${answer.action}).`;
    return `Write about ${String(answer.content?.topic)} for ${args.audience ?? 'everyone'}.`;
  }
}

/** The value `city` completes from, by country (the `country` argument given in the completion context). */
export const CITIES: Record<string, string[]> = { fr: ['Paris', 'Lyon', 'Lille'], it: ['Rome', 'Milan'] };

@McpPrompt({
  name: 'travel',
  description: 'Plans a trip.',
  arguments: [
    { name: 'country', required: true, complete: (value) => Object.keys(CITIES).filter((c) => c.startsWith(value)) },
    {
      name: 'city',
      required: true,
      complete: (value, context) => (CITIES[context.arguments.country ?? ''] ?? Object.values(CITIES).flat()).filter((c) => c.startsWith(value)),
    },
    { name: 'number', complete: async () => Array.from({ length: 250 }, (_, i) => String(i)) },
    { name: 'exactly', complete: () => Array.from({ length: 100 }, (_, i) => `v${i}`) },
    { name: 'broken', complete: () => ['1', 2] as unknown as string[] }, // the last element is checked too
    { name: 'sparse', complete: () => Object.assign<string[], Record<number, string>>([], { 2: 'x' }) },
    { name: 'whoami', complete: (_value, _context, ctx) => [`${ctx.prompt}:${String(ctx.clientInfo?.name)}`] },
    { name: 'notes' },
    {
      name: 'visa',
      complete: () => {
        throw new ForbiddenException('Visa data is not yours to read');
      },
    },
  ],
})
export class TravelPrompt implements McpPromptHandler {
  get(args: Record<string, string>) {
    return `Plan a trip to ${args.city}, ${args.country}.`;
  }
}

/** Every test prompt, with what they inject. */
export const TEST_PROMPTS = [Salutations, GreetPrompt, ContentsPrompt, MalformedPrompt, ThrowingPrompt, ConfirmTopicPrompt, TravelPrompt];

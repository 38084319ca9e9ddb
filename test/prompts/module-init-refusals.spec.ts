import { describe, expect, it } from '@jest/globals';
import { Inject, Injectable, Scope, type Type } from '@nestjs/common';

import { McpConfigurationError, McpPrompt, type McpPromptOptions } from '../../lib/index.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';

/** Builds a prompt class (`ReviewPrompt`) with `options` over a valid declaration, and a `get` unless `members` says otherwise. */
function prompt(options: Record<string, unknown> = {}, members: Record<string, unknown> = { get: () => 'Review it.' }): Type {
  class ReviewPrompt {}
  Object.assign(ReviewPrompt.prototype, members);
  McpPrompt({ name: 'review', description: 'Reviews a file.', arguments: [{ name: 'path', required: true }], ...options } as McpPromptOptions)(ReviewPrompt);
  return ReviewPrompt;
}

/** One case per offence: the providers to boot, and what the refusal's message must say. */
const OFFENCES: [string, Type[], RegExp][] = [
  ['a malformed name', [prompt({ name: 'my review' })], /^prompt "my review": a prompt name must be 1–128 characters.*, got "my review"$/],
  ['a name that is not a string', [prompt({ name: 7 })], /^prompt \(unnamed\): a prompt name must be 1–128 characters.*, got 7$/],
  ['a name of 129 characters', [prompt({ name: 'p'.repeat(129) })], /a prompt name must be 1–128 characters/],
  ['a duplicate name', [prompt(), prompt()], /^prompt "review": is declared more than once \(prompt names are unique in a server\)$/],
  ['a missing description', [prompt({ description: undefined })], /^prompt "review" \(ReviewPrompt\): description must be a non-empty string, got nothing$/],
  ['an empty description', [prompt({ description: '' })], /^prompt "review" \(ReviewPrompt\): description must be a non-empty string, got ""$/],
  ['a title that is not a string', [prompt({ title: 3 })], /^prompt "review" \(ReviewPrompt\): title must be a string, got 3$/],
  [
    'an unknown option',
    [prompt({ messages: [] })],
    /^prompt "review" \(ReviewPrompt\): @McpPrompt has unknown option\(s\) "messages"; allowed: name, title, description, arguments, icons$/,
  ],
  ['arguments that are not a list', [prompt({ arguments: { path: {} } })], /^prompt "review" \(ReviewPrompt\): arguments must be an array, got/],
  [
    'an argument that is not an object',
    [prompt({ arguments: ['path'] })],
    /^prompt "review" \(ReviewPrompt\), arguments\[0\]: an argument must be an object with a name, got "path"$/,
  ],
  [
    'an argument without a name',
    [prompt({ arguments: [{ required: true }] })],
    /^prompt "review" \(ReviewPrompt\), arguments\[0\]: an argument name must be a non-empty string, got nothing$/,
  ],
  [
    'an argument with an empty name',
    [prompt({ arguments: [{ name: '' }] })],
    /^prompt "review" \(ReviewPrompt\), arguments\[0\]: an argument name must be a non-empty string, got ""$/,
  ],
  [
    'two arguments of one name',
    [prompt({ arguments: [{ name: 'path' }, { name: 'depth' }, { name: 'path' }] })],
    /^prompt "review" \(ReviewPrompt\), argument "path": is declared twice \(argument names are unique in a prompt\)$/,
  ],
  [
    'an unknown argument key',
    [prompt({ arguments: [{ name: 'path', optional: true }] })],
    /argument "path": the argument has unknown option\(s\) "optional"; allowed: name, title, description, required, complete$/,
  ],
  ['required that is not a boolean', [prompt({ arguments: [{ name: 'path', required: 'yes' }] })], /argument "path": required must be a boolean, got "yes"$/],
  ['an argument title that is not a string', [prompt({ arguments: [{ name: 'path', title: 5 }] })], /argument "path": title must be a string, got 5$/],
  [
    'an argument description that is not a string',
    [prompt({ arguments: [{ name: 'path', description: ['x'] }] })],
    /argument "path": description must be a string, got \[ 'x' \]$/,
  ],
  [
    'a completer that is not a function',
    [prompt({ arguments: [{ name: 'path', complete: ['a.ts'] }] })],
    /argument "path": complete must be a function .* or the name of a method of the class, got \[ 'a.ts' \]$/,
  ],
  [
    'a completer naming no method',
    [prompt({ arguments: [{ name: 'path', complete: 'paths' }] })],
    /^prompt "review" \(ReviewPrompt\), argument "path": complete names "paths", which is no method of the class$/,
  ],
  ['icons that are not a list', [prompt({ icons: 'x.png' })], /^prompt "review" \(ReviewPrompt\): icons must be an array, got "x.png"$/],
  [
    'an icon the protocol schema refuses',
    [prompt({ icons: [{ src: 'not a uri', theme: 'pink' }] })],
    /^prompt "review" \(ReviewPrompt\): is not a valid MCP Prompt: icons\[0\]\.src: must be a valid uri, such as "https:\/\/example\.com\/a" \(absolute, with a scheme\); icons\[0\]\.theme: must be one of "dark", "light"$/,
  ],
  ['a class without get()', [prompt({}, { run: () => 'x' })], /^prompt "review" \(ReviewPrompt\): a prompt must implement get\(args, ctx\)$/],
  ['a get that is not a method', [prompt({}, { get: 'Review it.' })], /a prompt must implement get\(args, ctx\)$/],
];

@Injectable({ scope: Scope.REQUEST })
@McpPrompt({ name: 'scoped', description: 'Request-scoped.' })
class ScopedPrompt {
  get() {
    return 'x';
  }
}

/** A request-scoped provider, and a prompt that declares no scope but injects it (beside a singleton). */
@Injectable({ scope: Scope.REQUEST })
class PerRequest {}

@Injectable()
class Settings {}

@Injectable()
@McpPrompt({ name: 'injecting', description: 'Scoped by its dependency.' })
class InjectingPrompt {
  constructor(
    readonly settings: Settings,
    readonly perRequest: PerRequest,
  ) {}
  get() {
    return 'x';
  }
}

@Injectable({ scope: Scope.REQUEST })
class Caller {}

/** A prompt scoped by the request-scoped providers it injects into properties. */
@Injectable()
@McpPrompt({ name: 'property', description: 'Scoped by an injected property.' })
class PropertyInjectingPrompt {
  @Inject(PerRequest) readonly perRequest!: PerRequest;
  @Inject(Caller) readonly caller!: Caller;
  get() {
    return 'x';
  }
}

describe('module init refuses a prompt declaration', () => {
  it.each(OFFENCES)('refuses %s with a McpConfigurationError naming the prompt and the offending value', async (_offence, providers, message) => {
    const started = createTestApp({ providers });
    await expect(started).rejects.toBeInstanceOf(McpConfigurationError);
    await expect(started).rejects.toThrow(message);
  });

  it('refuses a request-scoped prompt', async () => {
    await expect(createTestApp({ providers: [ScopedPrompt] })).rejects.toThrow(/^prompt "scoped" \(ScopedPrompt\): a prompt must be a singleton provider/);
    await expect(createTestApp({ providers: [ScopedPrompt] })).rejects.toThrow(/are not supported; resolve a request-scoped service per call instead, through ModuleRef .*$/);
  });

  it('refuses a prompt made request-scoped by what it injects, naming the dependency', async () => {
    await expect(createTestApp({ providers: [PerRequest, Settings, InjectingPrompt] })).rejects.toThrow(
      /^prompt "injecting" \(InjectingPrompt\): a prompt must be a singleton provider; .* are not supported \(it declares no scope, but injects PerRequest, which is not a singleton, so Nest scopes it too\); resolve a request-scoped service per call instead, through ModuleRef/,
    );
  });

  it('names the scoped dependencies it injects through properties too', async () => {
    await expect(createTestApp({ providers: [PerRequest, Caller, PropertyInjectingPrompt] })).rejects.toThrow(
      /\(it declares no scope, but injects PerRequest, Caller, which are not singletons, so Nest scopes it too\);/,
    );
  });

  it.each([
    ['no options object', undefined],
    ['a string', 'review'],
    ['a list', [{ name: 'review', description: 'Reviews a file.' }]],
  ])('refuses @McpPrompt given %s', async (_what, options) => {
    class Bare {
      get() {
        return 'x';
      }
    }
    McpPrompt(options as unknown as McpPromptOptions)(Bare);
    await expect(createTestApp({ providers: [Bare] })).rejects.toThrow(/^prompt \(Bare\): @McpPrompt takes an options object with name and description$/);
  });

  it('starts when the same declaration is valid (the cases above break one thing each)', async () => {
    const app = await createTestApp({
      providers: [
        prompt({ title: 'Review', icons: [{ src: 'https://example.com/r.svg', theme: 'dark' }], arguments: [{ name: 'path', required: true, complete: () => [] }] }),
      ],
    });
    try {
      const listed = await post(app.server, rpc('prompts/list'));
      expect(listed.body.result.prompts).toEqual([
        {
          name: 'review',
          title: 'Review',
          description: 'Reviews a file.',
          arguments: [{ name: 'path', required: true }],
          icons: [{ src: 'https://example.com/r.svg', theme: 'dark' }],
        },
      ]);
    } finally {
      await app.close();
    }
  });
});

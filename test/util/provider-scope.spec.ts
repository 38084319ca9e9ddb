import { describe, expect, it } from '@jest/globals';
import { Inject, Injectable, Scope } from '@nestjs/common';

import { McpPrompt, McpResource, McpResourceTemplate, McpTool } from '../../lib/index.js';
import { everyHandlerClass } from '../support/every-handler.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';

/** Each decorator that makes a class a provider, with what the singleton refusal calls the class. */
const PROVIDER_DECORATORS = [
  ['@McpTool', McpTool({ name: 'scoped', description: 'Scoped.', inputSchema: { type: 'object' } }), 'tool "scoped"', 'tool'],
  ['@McpResource', McpResource({ uri: 'app://scoped', name: 'scoped' }), 'resource "scoped"', 'resource'],
  ['@McpResourceTemplate', McpResourceTemplate({ uriTemplate: 'app://scoped/{id}', name: 'scoped' }), 'resource template "scoped"', 'resource'],
  ['@McpPrompt', McpPrompt({ name: 'scoped', description: 'Scoped.' }), 'prompt "scoped"', 'prompt'],
] as const;

/** The way out a request-scoped refusal names (escaped for a RegExp); a transient one has none. */
const PER_CALL = String.raw`; resolve a request-scoped service per call instead, through ModuleRef under ContextIdFactory\.getByRequest\(ctx\.request\) \(docs/tools\.md\)`;

/** Starts an app serving `provider`, and closes it again if it starts: the cases expect a refusal. */
const started = (provider: new () => unknown) => createTestApp({ providers: [provider] }).then((t) => t.close());

/** A class with every handler, decorated as written top to bottom (the last applies first). */
function declared(...decorators: ClassDecorator[]) {
  const Scoped = everyHandlerClass('Scoped');
  for (const decorate of decorators.reverse()) decorate(Scoped);
  return Scoped;
}

describe('a provider made request-scoped or transient is refused at module init, whichever decorator is on top', () => {
  describe.each(PROVIDER_DECORATORS)('%s', (_name, decorator, site, noun) => {
    it.each([
      ['REQUEST', Scope.REQUEST],
      ['TRANSIENT', Scope.TRANSIENT],
    ])('under @Injectable({ scope: Scope.%s }), and above it', async (_scope, scope) => {
      const perCall = scope === Scope.REQUEST ? PER_CALL : '';
      const refusal = new RegExp(`^${site} \\(Scoped\\): a ${noun} must be a singleton provider; request-scoped and transient ${noun}s are not supported${perCall}$`);
      await expect(started(declared(Injectable({ scope }), decorator))).rejects.toThrow(refusal);
      await expect(started(declared(decorator, Injectable({ scope })))).rejects.toThrow(refusal);
    });
  });

  it('serves a provider that injects transient providers (it gets an instance of its own; no scope passes to it)', async () => {
    @Injectable({ scope: Scope.TRANSIENT })
    class Counter {
      count = 0;
    }
    @McpTool({ name: 'counts', description: 'Counts.', inputSchema: { type: 'object' } })
    class CountingTool {
      @Inject(Counter) readonly byProperty!: Counter;
      constructor(readonly byConstructor: Counter) {}
      run() {
        return `${++this.byConstructor.count}/${this.byProperty.count} ${this.byConstructor !== this.byProperty}`;
      }
    }
    const t = await createTestApp({ providers: [Counter, CountingTool] });
    try {
      const call = () => post(t.server, rpc('tools/call', { name: 'counts', arguments: {} }));
      expect((await call()).body.result.content).toEqual([{ type: 'text', text: '1/1 false' }]);
      expect((await call()).body.result.content).toEqual([{ type: 'text', text: '2/2 false' }]);
    } finally {
      await t.close();
    }
  });

  it('says nothing of what a provider injects when it declares its own request scope', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class PerRequest {}
    @McpTool({ name: 'scoped', description: 'Scoped.', inputSchema: { type: 'object' } })
    @Injectable({ scope: Scope.REQUEST })
    class ScopedTool {
      constructor(readonly perRequest: PerRequest) {}
      run() {
        return 'x';
      }
    }
    const refusal = new RegExp(`^tool "scoped" \\(ScopedTool\\): a tool must be a singleton provider; request-scoped and transient tools are not supported${PER_CALL}$`);
    await expect(createTestApp({ providers: [PerRequest, ScopedTool] }).then((t) => t.close())).rejects.toThrow(refusal);
  });

  it('keeps a scope the class inherits', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Base {}
    @McpPrompt({ name: 'inherits', description: 'Inherits its scope.' })
    class Inheriting extends Base {
      get() {
        return 'x';
      }
    }
    await expect(started(Inheriting)).rejects.toThrow(/^prompt "inherits" \(Inheriting\): a prompt must be a singleton provider/);
  });
});

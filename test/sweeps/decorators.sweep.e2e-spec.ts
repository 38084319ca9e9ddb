import { describe, expect, it } from '@jest/globals';
import type { Type } from '@nestjs/common';

import * as api from '../../lib/index.js';
import { everyHandlerClass } from '../support/every-handler.js';
import { createTestApp } from '../support/test-app.js';

/** The package's decorators: its exports named `Mcp…` that are plain functions (not classes, tokens or objects). */
const DECORATORS = Object.entries(api)
  .filter(([name, value]) => /^Mcp[A-Z]/.test(name) && typeof value === 'function' && !/^class\b/.test(Function.prototype.toString.call(value)))
  .map(([name]) => name)
  .sort();

/** Calls a decorator as plain JavaScript may, with no options object. */
const withNothing = (decorator: unknown) => (decorator as (options?: unknown) => (...target: unknown[]) => void)();

/** For each decorator: a provider it marks with no options, and the site its refusal names. */
const GIVEN_NOTHING: Record<string, { provider: () => Type; site: string }> = {
  McpTool: { provider: () => withDecorator('McpTool'), site: 'tool (Declared)' },
  McpResource: { provider: () => withDecorator('McpResource'), site: 'resource (Declared)' },
  McpResourceTemplate: { provider: () => withDecorator('McpResourceTemplate'), site: 'resource template (Declared)' },
  McpPrompt: { provider: () => withDecorator('McpPrompt'), site: 'prompt (Declared)' },
  McpAction: {
    provider: () => {
      const Declared = everyHandlerClass('Declared');
      withNothing(api.McpAction)(Declared.prototype, 'run', Object.getOwnPropertyDescriptor(Declared.prototype, 'run'));
      api.McpTool({ name: 'tasks', description: 'Tasks.' })(Declared);
      return Declared;
    },
    site: 'tool "tasks", method run()',
  },
};

function withDecorator(name: keyof typeof api): Type {
  const Declared = everyHandlerClass('Declared');
  withNothing(api[name])(Declared);
  return Declared;
}

describe('every decorator the package exports', () => {
  it('has a case here', () => {
    expect(Object.keys(GIVEN_NOTHING).sort()).toEqual(DECORATORS);
  });

  it.each(DECORATORS)('%s given no options object stops the application, naming where, rather than serving nothing', async (name) => {
    const { provider, site } = GIVEN_NOTHING[name]!;
    const started = createTestApp({ providers: [provider()] });
    await expect(started).rejects.toBeInstanceOf(api.McpConfigurationError);
    await expect(started).rejects.toThrow(new RegExp(`^${site.replace(/[()]/g, '\\$&')}: @${name} takes an options object`));
  });
});

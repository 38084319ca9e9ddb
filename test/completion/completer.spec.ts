import { describe, expect, it } from '@jest/globals';

import { runCompleter } from '../../lib/completion/completer.js';
import type { McpContext } from '../../lib/context/mcp-context.js';

const ctx = {} as McpContext;

describe('runCompleter', () => {
  it('names a return that is no array of strings, shown to 60 characters', async () => {
    const run = runCompleter(() => 'x'.repeat(100), '', { arguments: {} }, ctx, 'the completer of variable "id"');
    await expect(run).rejects.toThrow(new TypeError(`the completer of variable "id" must return an array of strings, not ${'x'.repeat(59)}…`));
  });

  it('hands back the strings a completer returns, as it returned them', async () => {
    const values = ['a', 'b'];
    await expect(runCompleter(async (value) => [...values, value], 'c', { arguments: {} }, ctx, 'it')).resolves.toEqual(['a', 'b', 'c']);
  });
});

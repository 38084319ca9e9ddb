import { describe, expect, it } from '@jest/globals';
import { McpAction, McpTool } from '../../lib/index.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool } from '../support/tool-call.js';

/** One action per JSON Schema construct whose problems the value gate words: each call sends what its schema refuses. */
@McpTool({ name: 'shapes', description: 'Values the value gate words problems for' })
class ShapesTool {
  @McpAction({ description: 'Keys named by a pattern', properties: { tags: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } } } })
  names(data: unknown) {
    return data;
  }
}

/** Calls `shapes` with one action's data and returns the value gate's answer. */
const refuse = async (server: Parameters<typeof callTool>[0], action: string, data: Record<string, unknown>) => {
  const answer = await callTool(server, 'shapes', { action, data });
  expect(answer.body.error).toBe('invalid_values');
  return answer.body as { invalid_count: number; invalid: { path: string; problems: string[] }[] };
};

describe('the value gate words each problem at the value that has it', () => {
  const app = useTestApp({ providers: [ShapesTool] });

  it('a key propertyNames refuses: one problem, at that key, saying what its name must be', async () => {
    const found = await refuse(app().server, 'names', { tags: { Bad: 1, good: 2 } });
    expect(found).toMatchObject({ invalid_count: 1, invalid: [{ path: 'tags.Bad', problems: ['its name must match the pattern "^[a-z]+$"'] }] });
  });
});

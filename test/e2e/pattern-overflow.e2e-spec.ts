import { describe, expect, it } from '@jest/globals';

import { McpTool, type McpContext, type McpPlainTool } from '../../lib/index.js';
import { accept, callTool as callRound } from '../support/mrtr-client.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool } from '../support/tool-call.js';

/** A pattern repeating a group: V8 overflows its backtrack stack matching a few million characters against it. */
const PATTERN = '^([a-z0-9])+$';

/** Long enough to overflow it, within the default body limit (4 MiB). */
const LONG = 'a'.repeat(3_600_000);

const TOO_LONG = `is ${LONG.length} characters long, too long to be matched against the pattern "${PATTERN}"`;

@McpTool({
  name: 'labels',
  description: 'Takes a slug and labels keyed by slugs.',
  inputSchema: {
    type: 'object',
    properties: { slug: { type: 'string', pattern: PATTERN }, labels: { type: 'object', patternProperties: { [PATTERN]: { type: 'string' } }, additionalProperties: false } },
  },
})
class LabelsTool implements McpPlainTool {
  run() {
    return 'served';
  }
}

@McpTool({ name: 'ask_slug', description: 'Asks for a slug.', inputSchema: { type: 'object', properties: {} } })
class AskSlugTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const requestedSchema = { type: 'object', properties: { slug: { type: 'string', pattern: PATTERN } }, required: ['slug'] } as const;
    const answer = await ctx.elicit({ message: 'Slug?', requestedSchema: requestedSchema as never }, { key: 'slug' });
    return `got ${String((answer.content as { slug?: string } | undefined)?.slug).length}`;
  }
}

describe('a string too long to be matched against its pattern (V8 overflows its backtrack stack, a RangeError)', () => {
  const app = useTestApp({ providers: [LabelsTool, AskSlugTool] });

  it('sent as a value is refused as invalid_values where it sits, not as a value nested too deeply', async () => {
    expect((await callTool(app().server, 'labels', { slug: 'a'.repeat(1000) })).body).toBe('served');
    const answer = await callTool(app().server, 'labels', { slug: LONG });
    expect(answer.result.isError).toBe(true);
    expect(answer.body).toMatchObject({ error: 'invalid_values', invalid_count: 1, invalid: [{ path: 'slug', problems: [TOO_LONG] }], first_only: true });
    expect(answer.body.message).toBe(`The arguments object of tool "labels" holds at least one invalid value: slug: ${TOO_LONG} (send it shorter and retry).`);
  });

  it('sent as a key the unknown-key gate reads is refused as invalid_values, not a tool fault', async () => {
    expect((await callTool(app().server, 'labels', { labels: { abc: 'x' } })).body).toBe('served');
    const answer = await callTool(app().server, 'labels', { labels: { [LONG]: 'x' } });
    expect(answer.result.isError).toBe(true);
    expect(answer.body).toMatchObject({ error: 'invalid_values', invalid_count: 1, invalid: [{ path: `labels["${'a'.repeat(63)}…"]`, problems: [TOO_LONG] }] });
  });

  it('sent in an elicitation answer is refused -32602 invalid_input_response, not a tool fault', async () => {
    const first = await callRound(app().server, 'ask_slug', {});
    const requestState = first.body.result.requestState as string;
    const served = await callRound(app().server, 'ask_slug', {}, { inputResponses: { slug: accept({ slug: 'abc' }) }, requestState });
    expect(served.body.result.content).toEqual([{ type: 'text', text: 'got 3' }]);
    const refused = await callRound(app().server, 'ask_slug', {}, { inputResponses: { slug: accept({ slug: LONG }) }, requestState });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: -32602,
      data: { reason: 'invalid_input_response', key: 'slug', errors: [{ location: '/params/inputResponses/slug/content/slug', problems: [TOO_LONG] }] },
    });
  });
});

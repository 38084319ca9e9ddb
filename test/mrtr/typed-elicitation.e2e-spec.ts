import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BooleanSchema, StringSchema } from '@modelcontextprotocol/sdk/spec.types.js';

import { McpTool, type McpContext, type McpElicitParams, type McpElicitValue, type McpPlainTool } from '../../lib/index.js';
import { accept, callTool } from '../support/mrtr-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Asks for a form written in the call, so `ctx.elicit` types its content from the schema: this file type-checks only
 * while an accept carries content, `name` is a string that is present, `age` a number that may be absent, `tags` an
 * array of the enum's literals, and no other field exists (`npm test` type-checks before it runs).
 */
@McpTool({ name: 'typed_form', description: 'Asks for a typed form.', inputSchema: { type: 'object' } })
class TypedFormTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const answer = await ctx.elicit({
      message: 'Who are you?',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          age: { type: 'integer' },
          member: { type: 'boolean' },
          tags: { type: 'array', items: { type: 'string', enum: ['math', 'engines', 'art'] } },
        },
        required: ['name', 'member'],
      },
    });
    if (answer.action !== 'accept') return 'nobody';
    // An accept of a form that requires fields always carries its content (the server refuses one without).
    const { name, age, member, tags } = answer.content;
    const first: 'math' | 'engines' | 'art' | undefined = tags?.[0];
    // @ts-expect-error: the tags are the enum's literals
    const other: 'poetry' | undefined = tags?.[0];
    void [first, other];
    // @ts-expect-error: `age` may be absent (not in `required`)
    age.toFixed();
    // @ts-expect-error: `name` is a string
    const wrong: number = name;
    // @ts-expect-error: no field `nickname` in the form
    void answer.content.nickname;
    void wrong;
    return `${name.toUpperCase()} ${age === undefined ? '?' : age.toFixed(0)} ${member ? 'member' : 'guest'} ${(tags ?? []).join('+')}`;
  }
}

/** Asks with params built elsewhere (typed as the union): content is the untyped record, as before. */
@McpTool({ name: 'untyped_form', description: 'Asks with a prebuilt form.', inputSchema: { type: 'object' } })
class UntypedFormTool implements McpPlainTool {
  private readonly form: McpElicitParams = { message: 'Anything?', requestedSchema: { type: 'object', properties: { note: { type: 'string' } } } };

  async run(_args: unknown, ctx: McpContext) {
    const answer = await ctx.elicit(this.form);
    const note: McpElicitValue | undefined = answer.content?.note;
    return `note: ${String(note)}`;
  }
}

/** Fields typed by interfaces, as a port from the SDK keeps them (its spec types): the form takes them, typed. */
const CITY: StringSchema = { type: 'string', title: 'City', minLength: 1 };
const NOTIFY: BooleanSchema = { type: 'boolean', default: false };

@McpTool({ name: 'interface_form', description: 'Asks with fields typed by interfaces.', inputSchema: { type: 'object' } })
class InterfaceFormTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const answer = await ctx.elicit({ message: 'Where?', requestedSchema: { type: 'object', properties: { city: CITY, notify: NOTIFY }, required: ['city'] } });
    if (answer.action !== 'accept') return 'nowhere';
    const { city, notify } = answer.content;
    // @ts-expect-error: `notify` may be absent (not in `required`)
    const sure: boolean = notify;
    void sure;
    return `${city.toUpperCase()} ${notify ? 'notify' : 'quiet'}`;
  }
}

describe('ctx.elicit typed from the schema written in the call', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [TypedFormTool, UntypedFormTool, InterfaceFormTool] });
  });
  afterAll(() => t.close());

  it('hands the tool the accepted content, whose types the compiler knew', async () => {
    const first = await callTool(t.server, 'typed_form', {});
    const key = Object.keys(first.body.result.inputRequests)[0]!;
    const content = { name: 'ada', age: 36, member: true, tags: ['math', 'engines'] };
    const done = await callTool(t.server, 'typed_form', {}, { inputResponses: { [key]: accept(content) }, requestState: first.body.result.requestState });
    expect(done.body.result.content).toEqual([{ type: 'text', text: 'ADA 36 member math+engines' }]);
  });

  it('refuses an accept without the content the form requires, so the typed content is always there', async () => {
    const first = await callTool(t.server, 'typed_form', {});
    const key = Object.keys(first.body.result.inputRequests)[0]!;
    const refused = await callTool(t.server, 'typed_form', {}, { inputResponses: { [key]: { action: 'accept' } }, requestState: first.body.result.requestState });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_input_response', key } });
  });

  it('takes fields typed by interfaces, and types their answers from them', async () => {
    const first = await callTool(t.server, 'interface_form', {});
    const [key, asked] = Object.entries(first.body.result.inputRequests)[0]!;
    expect(asked).toMatchObject({ params: { requestedSchema: { properties: { city: CITY, notify: NOTIFY }, required: ['city'] } } });
    const done = await callTool(t.server, 'interface_form', {}, { inputResponses: { [key]: accept({ city: 'oslo' }) }, requestState: first.body.result.requestState });
    expect(done.body.result.content).toEqual([{ type: 'text', text: 'OSLO quiet' }]);
  });

  it('leaves content untyped for params typed as the union', async () => {
    const first = await callTool(t.server, 'untyped_form', {});
    const key = Object.keys(first.body.result.inputRequests)[0]!;
    const done = await callTool(t.server, 'untyped_form', {}, { inputResponses: { [key]: accept({ note: 'hi' }) }, requestState: first.body.result.requestState });
    expect(done.body.result.content).toEqual([{ type: 'text', text: 'note: hi' }]);
  });
});

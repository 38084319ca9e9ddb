import type { Server } from 'node:http';

import { describe, expect, it } from '@jest/globals';

import {
  McpAction,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  type McpPromptHandler,
  type McpResourceHandler,
  type McpResourceTemplateHandler,
} from '../../lib/index.js';
import { NAMES_LISTED } from '../../lib/util/named-registry.js';
import { generatedToolName, generatedTools } from '../support/generated-tools.js';
import { legacyPost } from '../support/legacy-client.js';
import { post, rpc } from '../support/mcp-client.js';
import { useTestApp } from '../support/suite-app.js';
import { callTool } from '../support/tool-call.js';

@McpTool({
  name: 'search_docs',
  description: 'Searches the docs.',
  inputSchema: { type: 'object', properties: { query: { type: 'string' }, maxResults: { type: 'integer' } }, required: ['query'] },
})
class SearchDocsTool {
  run(args: { query: string }): string {
    return `found ${args.query}`;
  }
}

@McpTool({ name: 'library', description: 'Lends books.' })
class LibraryTool {
  @McpAction({ description: 'Find a book', properties: { title: { type: 'string' }, date: { type: 'string', format: 'date' } }, required: ['title'] })
  search(data: { title: string }): string {
    return `searched ${data.title}`;
  }

  @McpAction({ description: 'Lend a book', properties: { bookId: { type: 'string' }, memberId: { type: 'string' } }, required: ['bookId', 'memberId'] })
  checkout(data: { bookId: string }): string {
    return `lent ${data.bookId}`;
  }
}

const CURRENCIES = ['AUD', 'BRL', 'CAD', 'CHF', 'CNY', 'EUR', 'GBP', 'INR', 'JPY', 'NZD', 'SEK', 'USD'];

@McpTool({
  name: 'convert',
  description: 'Converts an amount.',
  inputSchema: {
    type: 'object',
    properties: {
      to: { type: 'string', enum: CURRENCIES },
      rounding: { enum: ['down', 'nearest', 'up', 1] },
      lines: { type: 'array', items: { enum: CURRENCIES } },
      options: { type: 'object', properties: { fee: { type: 'number' }, legacyFee: false } },
    },
  },
})
class ConvertTool {
  run(args: { to: string }): string {
    return `in ${args.to}`;
  }
}

/** A closed shape of the `notify` tool's union: the value gate, not the unknown-key gate, refuses a property of it. */
const shape = (kind: string, properties: Record<string, unknown>) => ({ type: 'object', properties: { kind: { const: kind }, ...properties }, additionalProperties: false });

@McpTool({
  name: 'notify',
  description: 'Sends a notice.',
  inputSchema: {
    type: 'object',
    properties: {
      channel: { oneOf: [shape('email', { address: { type: 'string' }, subject: { type: 'string' }, replyTo: false }), shape('sms', { phoneNumber: { type: 'string' } })] },
    },
  },
})
class NotifyTool {
  run(): string {
    return 'sent';
  }
}

@McpPrompt({
  name: 'summarize_text',
  description: 'Summarizes a text.',
  arguments: [{ name: 'length' }, { name: 'style', complete: (value: string) => [`${value}brief`] }],
})
class SummarizePrompt implements McpPromptHandler {
  get(): string {
    return 'Summarize this.';
  }
}

@McpResource({ uri: 'notes://readme', name: 'readme' })
class ReadmeResource implements McpResourceHandler {
  read(): string {
    return 'Read me.';
  }
}

/** A URI longer than a name is quoted: its near miss is quoted whole, or the next call could not send it. */
const LONG_URI = 'notes://archive/2026/engineering/architecture-decisions/overview-of-the-system.md';

@McpResource({ uri: LONG_URI, name: 'overview' })
class OverviewResource implements McpResourceHandler {
  read(): string {
    return 'Overview.';
  }
}

@McpResourceTemplate({ uriTemplate: 'notes://notes/{title}', name: 'note', complete: { title: (value: string) => [`${value}s`] } })
class NoteTemplate implements McpResourceTemplateHandler {
  read(uri: string): string {
    return `note ${uri}`;
  }
}

/** A completion/complete of `argument` of the prompt or resource template `ref`. */
const complete = (server: Server, ref: Record<string, string>, argument: string) => post(server, rpc('completion/complete', { ref, argument: { name: argument, value: '' } }));

/** More tools than a refusal lists, so the tool a caller meant may be one the message's list leaves out. */
const MANY = generatedTools(NAMES_LISTED + 10);
const UNLISTED = generatedToolName(NAMES_LISTED + 5);

/** Each refusal of a name a caller misspelled, the hint it ends the name with, and what it reads without one. */
const MISSPELLED = [
  {
    what: 'an unknown tool (tools/call, -32602)',
    send: (server: Server, name = 'search_dosc') => post(server, rpc('tools/call', { name, arguments: {} })),
    message: (res: { body: { error: { message: string } } }) => res.body.error.message,
    hinted: 'Unknown tool: "search_dosc" (did you mean "search_docs"?). Valid tools: ',
  },
  {
    what: "help's unknown tool",
    send: (server: Server, name = 'libary') => callTool(server, 'help', { tool: name }),
    message: (res: { body: { message: string } }) => res.body.message,
    hinted: 'Unknown tool: "libary" (did you mean "library"?). Valid tools: ',
  },
  {
    what: 'an unknown prompt (prompts/get)',
    send: (server: Server, name = 'summarise_text') => post(server, rpc('prompts/get', { name })),
    message: (res: { body: { error: { message: string } } }) => res.body.error.message,
    hinted: 'Invalid params: unknown prompt "summarise_text" (did you mean "summarize_text"?). Valid prompts: summarize_text.',
  },
  {
    what: 'an unknown argument of a prompt (prompts/get)',
    send: (server: Server, name = 'lenght') => post(server, rpc('prompts/get', { name: 'summarize_text', arguments: { [name]: '5' } })),
    message: (res: { body: { error: { message: string } } }) => res.body.error.message,
    hinted: 'Invalid params: prompt "summarize_text" takes no argument "lenght" (did you mean "length"?); it takes "length", "style".',
  },
  {
    what: 'an unknown prompt to complete (completion/complete)',
    send: (server: Server, name = 'summarise_text') => complete(server, { type: 'ref/prompt', name }, 'style'),
    message: (res: { body: { error: { message: string } } }) => res.body.error.message,
    hinted: 'Invalid params: no prompt "summarise_text" (did you mean "summarize_text"?) to complete. Prompts: summarize_text.',
  },
  {
    what: 'an unknown argument of a prompt to complete (completion/complete)',
    send: (server: Server, name = 'stlye') => complete(server, { type: 'ref/prompt', name: 'summarize_text' }, name),
    message: (res: { body: { error: { message: string } } }) => res.body.error.message,
    hinted: 'Invalid params: prompt "summarize_text" has no argument "stlye" (did you mean "style"?) to complete.',
  },
  {
    what: 'an unknown resource template to complete (completion/complete)',
    send: (server: Server, name = 'note') => complete(server, { type: 'ref/resource', uri: `notes://${name}/{title}` }, 'title'),
    message: (res: { body: { error: { message: string } } }) => res.body.error.message,
    hinted: 'no resource or resource template "notes://note/{title}" (did you mean "notes://notes/{title}"?) to complete. Templates: notes://notes/{title}.',
  },
  {
    what: 'an unknown variable of a resource template to complete (completion/complete)',
    send: (server: Server, name = 'titel') => complete(server, { type: 'ref/resource', uri: 'notes://notes/{title}' }, name),
    message: (res: { body: { error: { message: string } } }) => res.body.error.message,
    hinted: 'Invalid params: "titel" (did you mean "title"?) is not a variable of resource template "notes://notes/{title}".',
  },
  {
    what: 'a resource URI nothing serves (resources/read)',
    send: (server: Server, name = 'raedme') => post(server, rpc('resources/read', { uri: `notes://${name}` })),
    message: (res: { body: { error: { message: string } } }) => res.body.error.message,
    hinted: 'Resource not found: "notes://raedme" (did you mean "notes://readme"?). Resources: notes://readme, ',
  },
  {
    what: 'a long resource URI nothing serves (resources/read), its near miss quoted whole',
    send: (server: Server, name = 'overveiw') => post(server, rpc('resources/read', { uri: LONG_URI.replace('overview', name) })),
    message: (res: { body: { error: { message: string } } }) => res.body.error.message,
    hinted: `(did you mean "${LONG_URI}"?). Resources: `,
  },
  {
    what: 'a property a closed shape of a union refuses (the value gate)',
    send: (server: Server, name = 'adress') => callTool(server, 'notify', { channel: { kind: 'email', [name]: 'a@b.example' } }),
    message: (res: { body: { message: string } }) => res.body.message,
    hinted: 'holds 1 invalid value(s): channel.adress: is not an allowed property (did you mean "address"?).',
  },
  {
    what: 'an unknown action (the unknown_action gate)',
    send: (server: Server, name = 'serch') => callTool(server, 'library', { action: name, data: {} }),
    message: (res: { body: { message: string } }) => res.body.message,
    hinted: 'Unknown action "serch" (did you mean "search"?) for tool "library". Valid actions: checkout, search.',
  },
  {
    what: "help's unknown action",
    send: (server: Server, name = 'check_out') => callTool(server, 'help', { tool: 'library', action: name }),
    message: (res: { body: { message: string } }) => res.body.message,
    hinted: 'Unknown action "check_out" (did you mean "checkout"?) for tool "library". Valid actions: checkout, search.',
  },
  {
    what: 'an unknown argument of an action tool (the unknown_arguments gate)',
    send: (server: Server, name = 'acton') => callTool(server, 'library', { [name]: 'search', data: {} }),
    message: (res: { body: { message: string } }) => res.body.message,
    hinted: 'Unknown argument(s) "acton" (did you mean "action"?) in the call to tool "library"; it takes only "action", "data".',
  },
  {
    what: "an unknown key of a plain tool's arguments (the unknown_params gate)",
    send: (server: Server, name = 'max_results') => callTool(server, 'search_docs', { query: 'q', [name]: 5 }),
    message: (res: { body: { message: string } }) => res.body.message,
    hinted: 'holds 1 unknown key(s): max_results (did you mean "maxResults"?). "allowed" lists',
  },
  {
    what: 'an unknown key beside a missing required one (the missing_required gate)',
    send: (server: Server, name = 'book_id') => callTool(server, 'library', { action: 'checkout', data: { [name]: 'b1', memberId: 'm1' } }),
    message: (res: { body: { message: string } }) => res.body.message,
    hinted: 'is missing required property "bookId"; it also holds 1 unknown key(s): book_id (did you mean "bookId"?).',
  },
] as const;

describe('a refused name a caller nearly spelled right names the one it was meant as (did you mean)', () => {
  const app = useTestApp({ providers: [SearchDocsTool, LibraryTool, ConvertTool, NotifyTool, SummarizePrompt, ReadmeResource, OverviewResource, NoteTemplate, ...MANY] });

  it.each(MISSPELLED.map((refusal) => [refusal.what, refusal] as const))('%s', async (_what, refusal) => {
    const hinted = await refusal.send(app().server);
    expect(refusal.message(hinted as never)).toContain(refusal.hinted);
    // A name near none of the allowed ones is refused as before, without a guess.
    const far = await refusal.send(app().server, 'zzzzzzzzzzzz');
    expect(refusal.message(far as never)).toContain('zzzzzzzzzzzz');
    expect(refusal.message(far as never)).not.toContain('did you mean');
  });

  it('names a tool the refusal does not list, one of more tools than it lists, spelled otherwise', async () => {
    const res = await post(app().server, rpc('tools/call', { name: UNLISTED.toUpperCase(), arguments: {} }));
    expect(res.body.error.data.available).not.toContain(UNLISTED);
    expect(res.body.error.message).toContain(`Unknown tool: "${UNLISTED.toUpperCase()}" (did you mean "${UNLISTED}"?). Valid tools: `);
    expect(res.body.error.data).not.toHaveProperty('meant');
  });

  it('names a tool behind a prefix a client or server put before it (notes.search_docs, mcp__notes__search_docs)', async () => {
    for (const name of ['notes.search_docs', 'mcp__notes__search_docs']) {
      const res = await post(app().server, rpc('tools/call', { name, arguments: {} }));
      expect(res.body.error.message).toContain(`Unknown tool: "${name}" (did you mean "search_docs"?). Valid tools: `);
    }
  });

  it("says a property of the action's data sent beside it belongs inside data, rather than offer the argument it nearly spells", async () => {
    const flattened = await callTool(app().server, 'library', { action: 'search', date: '2026-12-07', data: { title: 't' } });
    expect(flattened.body.message).toBe('Unknown argument(s) "date" (it belongs inside "data") in the call to tool "library"; it takes only "action", "data".');
    // With no action named, a property of any action's data.
    const unnamed = await callTool(app().server, 'library', { bookId: 'b1' });
    expect(unnamed.body.message).toContain('"bookId" (it belongs inside "data")');
    // Only another action's: neither note, and never the argument it nearly spells.
    const other = await callTool(app().server, 'library', { action: 'checkout', date: '2026-12-07', data: { bookId: 'b1', memberId: 'm1' } });
    expect(other.body.message).toBe('Unknown argument(s) "date" in the call to tool "library"; it takes only "action", "data".');
  });

  it('never offers a property declared false (one that may not be sent), nor lists it as allowed', async () => {
    const key = await callTool(app().server, 'convert', { options: { legacyFe: 1 } });
    expect(key.body).toMatchObject({ error: 'unknown_params', unknown: ['options.legacyFe'], allowed: { '': ['lines', 'options', 'rounding', 'to'], options: ['fee'] } });
    expect(key.body.message).toContain('holds 1 unknown key(s): options.legacyFe. ');
    const value = await callTool(app().server, 'notify', { channel: { kind: 'email', replyT0: 'a@b.example' } });
    expect(value.body.message).toContain('holds 1 invalid value(s): channel.replyT0: is not an allowed property.');
    // Sent as declared, it is refused as before.
    const sent = await callTool(app().server, 'convert', { options: { legacyFee: 1 } });
    expect(sent.body).toMatchObject({ error: 'invalid_values', invalid: [{ path: 'options.legacyFee' }] });
  });

  it('offers no name the object already holds, nor one two unknown names of one object both nearly spell', async () => {
    const both = await callTool(app().server, 'library', { action: 'checkout', data: { bookId: 'b1', book_id: 'b1', memberId: 'm1' } });
    expect(both.body.message).toContain('holds 1 unknown key(s): book_id. ');
    const twice = await callTool(app().server, 'library', { action: 'checkout', data: { book_id: 'b1', bookid: 'b1', memberId: 'm1' } });
    expect(twice.body.message).toContain('holds 2 unknown key(s): book_id, bookid.');
    const held = await callTool(app().server, 'library', { action: 'search', Action: 'search', data: { title: 't' } });
    expect(held.body.message).toBe('Unknown argument(s) "Action" in the call to tool "library"; it takes only "action", "data".');
    const prompt = (args: Record<string, string>) => post(app().server, rpc('prompts/get', { name: 'summarize_text', arguments: args }));
    expect((await prompt({ length: '5', Length: '5' })).body.error.message).toContain('takes no argument "Length"; it takes');
    expect((await prompt({ lenght: '5', legnth: '5' })).body.error.message).toContain('takes no argument "lenght", "legnth"; it takes');
  });

  it('names the allowed value a misspelled enum value nearly spells, the list past eight values given way to its count', async () => {
    const sent = await callTool(app().server, 'convert', { to: 'eur', rounding: 'neerest' });
    expect(sent.body.message).toBe(
      'The arguments object of tool "convert" holds 2 invalid value(s): rounding: must be one of "down", "nearest", "up", 1 (did you mean "nearest"?); to: must be one of the 12 allowed values (did you mean "EUR"?).',
    );
    // In an array, at each item; one far from every value is refused as before.
    const items = await callTool(app().server, 'convert', { lines: ['usd', 'XYZ'] });
    expect(items.body.invalid).toEqual([
      { path: 'lines[0]', problems: ['must be one of the 12 allowed values (did you mean "USD"?)'] },
      { path: 'lines[1]', problems: ['must be one of "AUD", "BRL", "CAD", "CHF", "CNY", "EUR", "GBP", "INR", … (12 in all)'] },
    ]);
    const retried = await callTool(app().server, 'convert', { to: 'EUR', rounding: 'nearest' });
    expect(retried.body).toBe('in EUR');
  });

  it('says an object or array sent as its JSON text is a string of JSON, in the arguments and in a tool call itself', async () => {
    const nested = await callTool(app().server, 'convert', { options: '{"fee": 1}', lines: ' ["EUR"]' });
    expect(nested.body.invalid).toEqual([
      { path: 'lines', problems: ['must be an array, not a string of JSON (send the array itself)'] },
      { path: 'options', problems: ['must be an object, not a string of JSON (send the object itself)'] },
    ]);
    // Another string is refused as before, and so is the JSON text of an array where an object is wanted.
    expect((await callTool(app().server, 'convert', { options: 'fee=1' })).body.invalid).toEqual([{ path: 'options', problems: ['must be an object'] }]);
    expect((await callTool(app().server, 'convert', { options: '[1]' })).body.invalid).toEqual([{ path: 'options', problems: ['must be an object'] }]);
    const whole = await post(app().server, rpc('tools/call', { name: 'convert', arguments: '{"to": "EUR"}' }));
    expect(whole.body.error.message).toBe('Invalid params for tools/call; at /params/arguments, must be an object, not a string of JSON (send the object itself).');
  });

  it("says null sent for an optional property is not the property's type, and to leave it out, in arguments, in an action's data and in a request", async () => {
    const leaveOut = ', not null (leave out an optional property rather than send null)';
    const plain = await callTool(app().server, 'search_docs', { query: 'x', maxResults: null });
    expect(plain.body.message).toBe(`The arguments object of tool "search_docs" holds 1 invalid value(s): maxResults: must be an integer${leaveOut}.`);
    const data = await callTool(app().server, 'library', { action: 'search', data: { title: 't', date: null } });
    expect(data.body.invalid).toEqual([{ path: 'date', problems: [`must be a string${leaveOut}`] }]);
    const listed = await post(app().server, rpc('tools/list', { cursor: null }));
    expect(listed.body.error.message).toBe(`Invalid params for tools/list; at /params/cursor, must be a string${leaveOut}.`);
    // Left out, the property is no longer refused.
    expect((await callTool(app().server, 'search_docs', { query: 'x' })).body).toBe('found x');
    // A property its object requires is not one to leave out: in the arguments, and in a request (tools/call's name).
    const required = await callTool(app().server, 'search_docs', { query: null });
    expect(required.body.message).toBe('The arguments object of tool "search_docs" holds 1 invalid value(s): query: must be a string.');
    // An action's required property is required by the gate before the value gate (requiredOneOf: action-tools.e2e-spec.ts).
    const title = await callTool(app().server, 'library', { action: 'search', data: { title: null } });
    expect(title.body.invalid).toEqual([{ path: 'title', problems: ['must be a string'] }]);
    // A modern request's params carry its _meta: a null for them is refused as before, not to be left out.
    const noParams = await post(app().server, { jsonrpc: '2.0', id: 9, method: 'tools/list', params: null });
    expect(noParams.body.error.message).toBe('Invalid request: the message is not a valid JSON-RPC 2.0 request or notification; at /params, must be an object.');
    const unnamed = await post(app().server, rpc('tools/call', { name: null, arguments: {} }));
    expect(unnamed.body.error.message).toBe('Invalid params for tools/call; at /params/name, must be a string.');
  });

  it("names the value a misspelled protocol enum nearly spells (a legacy client's logging/setLevel)", async () => {
    const res = await legacyPost(app().server, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'Warn1ng' } });
    expect(res.messages[0]!.error.message).toContain(
      'at /params/level, must be one of "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency" (did you mean "warning"?)',
    );
  });

  it('the name it offers is one the next call can use', async () => {
    const meant = /did you mean "([^"]+)"/.exec((await callTool(app().server, 'library', { action: 'checkout', data: { book_id: 'b1', memberId: 'm1' } })).body.message)![1]!;
    const retried = await callTool(app().server, 'library', { action: 'checkout', data: { [meant]: 'b1', memberId: 'm1' } });
    expect({ isError: retried.result.isError, body: retried.body }).toEqual({ isError: undefined, body: 'lent b1' });
  });
});

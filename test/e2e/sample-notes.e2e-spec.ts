import { describe, expect, it } from '@jest/globals';

import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { listen } from '../support/listen.js';
import { post, rpc } from '../support/mcp-client.js';
import { accept, callTool } from '../support/mrtr-client.js';
import { useSampleApp } from '../support/sample-app.js';

const schema = await ProtocolSchema.vendored();

/** The sample's notes as resources, a prompt over them, completion of both, and change notifications. */
describe('the sample app: notes as resources, the review_note prompt, completion and listen', () => {
  const server = useSampleApp();

  it('lists the fixed resource, the notes its template lists, and the template, and advertises what they use', async () => {
    const discover = await post(server(), rpc('server/discover'));
    expect(discover.body.result.capabilities).toMatchObject({ resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} });

    const resources = await post(server(), rpc('resources/list'));
    expect(schema.check('ListResourcesResultResponse', resources.body)).toEqual([]);
    expect(resources.body.result.resources).toEqual([
      { uri: 'notes://index', name: 'notes-index', title: 'All notes', description: 'The title of every note.', mimeType: 'application/json' },
      ...['groceries', 'ideas', 'todo'].map((title) => ({ uri: `notes://notes/${title}`, name: title, mimeType: 'text/plain' })),
    ]);
    const templates = await post(server(), rpc('resources/templates/list'));
    expect(templates.body.result.resourceTemplates).toEqual([
      { uriTemplate: 'notes://notes/{title}', name: 'note', title: 'A note', description: 'The text of one note, by title.', mimeType: 'text/plain' },
    ]);
  });

  it('reads the index and a note through the template; an unknown note is -32602 with its URI', async () => {
    const index = await post(server(), rpc('resources/read', { uri: 'notes://index' }));
    expect(schema.check('ReadResourceResultResponse', index.body)).toEqual([]);
    expect(JSON.parse(index.body.result.contents[0].text)).toEqual(expect.arrayContaining(['ideas', 'todo']));

    const note = await post(server(), rpc('resources/read', { uri: 'notes://notes/ideas' }));
    expect(note.body.result.contents).toEqual([{ uri: 'notes://notes/ideas', mimeType: 'text/plain', text: 'a tool that asks before it deletes' }]);

    const missing = await post(server(), rpc('resources/read', { uri: 'notes://notes/nothing' }));
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: -32602, data: { uri: 'notes://notes/nothing' } });
  });

  it('completes the template variable and the prompt arguments', async () => {
    const title = await post(server(), rpc('completion/complete', { ref: { type: 'ref/resource', uri: 'notes://notes/{title}' }, argument: { name: 'title', value: 'id' } }));
    expect(title.body.result.completion).toEqual({ values: ['ideas'], total: 1, hasMore: false });
    const tone = await post(server(), rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'tone', value: 'b' } }));
    expect(tone.body.result.completion).toEqual({ values: ['blunt'], total: 1, hasMore: false });
  });

  it('builds the review_note prompt with the note embedded, and refuses a missing or unknown note', async () => {
    const res = await post(server(), rpc('prompts/get', { name: 'review_note', arguments: { title: 'todo', tone: 'blunt' } }));
    expect(schema.check('GetPromptResultResponse', res.body)).toEqual([]);
    expect(res.body.result.messages).toEqual([
      { role: 'user', content: { type: 'resource', resource: { uri: 'notes://notes/todo', mimeType: 'text/plain', text: 'write the docs, ship the release' } } },
      { role: 'user', content: { type: 'text', text: 'Review the note above for clarity. Be blunt.' } },
    ]);
    const missing = await post(server(), rpc('prompts/get', { name: 'review_note', arguments: {} }));
    expect(missing.body.error).toMatchObject({ code: -32602, data: { reason: 'missing_arguments', missing: ['title'] } });
    const unknown = await post(server(), rpc('prompts/get', { name: 'review_note', arguments: { title: 'nothing' } }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: -32602, message: 'No note titled "nothing".', data: { reason: 'unknown_note' } });
  });

  it('tells a listening client when delete_note removes a note it subscribed to', async () => {
    const listener = await listen(server(), { resourceSubscriptions: ['notes://notes/todo'] }, 'watch-todo');
    try {
      expect(await listener.nth(1)).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
      const first = await callTool(server(), 'delete_note', { title: 'todo' });
      await callTool(
        server(),
        'delete_note',
        { title: 'todo' },
        { inputResponses: { confirm_delete: accept({ confirm: true }) }, requestState: first.body.result.requestState },
      );
      expect(await listener.nth(2)).toMatchObject({
        method: 'notifications/resources/updated',
        params: { uri: 'notes://notes/todo', _meta: { 'io.modelcontextprotocol/subscriptionId': 'watch-todo' } },
      });
      const gone = await post(server(), rpc('resources/read', { uri: 'notes://notes/todo' }));
      expect(gone.body.error.code).toBe(-32602);
    } finally {
      listener.close();
    }
  });
});

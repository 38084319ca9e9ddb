import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ForbiddenException, Injectable, type Type } from '@nestjs/common';

import { McpResource, McpResourceTemplate, type McpContext, type McpListedResource, type McpResourceTemplateHandler, type McpUriVariables } from '../../lib/index.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { legacyPost } from '../support/legacy-client.js';
import { post, recordEvents, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const schema = await ProtocolSchema.vendored();

@McpResource({ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown' })
class ReadmeResource {
  read() {
    return '# Read me';
  }
}

/** The notes the template lists and reads; a test adds one between two lists. */
@Injectable()
class NoteStore {
  readonly notes = new Map([
    ['groceries', 'milk, eggs'],
    ['greek trip', 'Athens, then Naxos'],
  ]);
}

/** What each list() was handed as `ctx.resource`. */
const listedFor: (string | undefined)[] = [];

@McpResourceTemplate({ uriTemplate: 'notes://notes/{title}', name: 'note', mimeType: 'text/plain' })
class NoteTemplate implements McpResourceTemplateHandler<'notes://notes/{title}'> {
  constructor(private readonly store: NoteStore) {}

  read(_uri: string, { title }: McpUriVariables<'notes://notes/{title}'>) {
    return this.store.notes.get(title ?? '') ?? '';
  }

  list(ctx: McpContext): McpListedResource[] {
    listedFor.push(ctx.resource);
    return [...this.store.notes.keys()].map((title) => ({ uri: `notes://notes/${encodeURIComponent(title)}`, name: title }));
  }
}

@McpResourceTemplate({ uriTemplate: 'files:///{+path}', name: 'file', mimeType: 'text/plain' })
class FileTemplate implements McpResourceTemplateHandler {
  read(uri: string) {
    return `contents of ${uri}`;
  }

  async list() {
    return [{ uri: 'files:///logo.png', name: 'logo', mimeType: 'image/png', size: 68 }];
  }
}

/** A template that lists nothing of its own (no list method): its resources are reached by URI only. */
@McpResourceTemplate({ uriTemplate: 'users://{id}', name: 'user' })
class UserTemplate implements McpResourceTemplateHandler {
  read(uri: string) {
    return uri;
  }
}

const titles = (result: { resources: { uri: string }[] }) => result.resources.map((resource) => resource.uri);

describe('resources a template lists', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [NoteStore, ReadmeResource, NoteTemplate, UserTemplate, FileTemplate], options: { pageSize: 2 } });
  });
  afterAll(() => t.close());

  it('are listed after the fixed resources, in template order, with the template’s MIME type unless they name one', async () => {
    const first = await post(t.server, rpc('resources/list'));
    expect(schema.check('ListResourcesResult', first.body.result)).toEqual([]);
    const second = await post(t.server, rpc('resources/list', { cursor: first.body.result.nextCursor }));
    expect([...first.body.result.resources, ...second.body.result.resources]).toEqual([
      { uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown' },
      { uri: 'notes://notes/groceries', name: 'groceries', mimeType: 'text/plain' },
      { uri: 'notes://notes/greek%20trip', name: 'greek trip', mimeType: 'text/plain' },
      { uri: 'files:///logo.png', name: 'logo', mimeType: 'image/png', size: 68 },
    ]);
    expect(second.body.result).not.toHaveProperty('nextCursor');
    // Each is read through its template.
    const read = await post(t.server, rpc('resources/read', { uri: 'notes://notes/greek%20trip' }));
    expect(read.body.result.contents).toEqual([{ uri: 'notes://notes/greek%20trip', mimeType: 'text/plain', text: 'Athens, then Naxos' }]);
  });

  it('are asked for on every list, so a resource added since is listed (the first page is not kept)', async () => {
    const before = await post(t.server, rpc('resources/list'));
    const store = t.app.get(NoteStore);
    store.notes.set('alpha', 'first');
    try {
      const after = await post(t.server, rpc('resources/list'));
      expect(titles(before.body.result)).toEqual(['docs://readme', 'notes://notes/groceries']);
      expect(titles(after.body.result)).toEqual(['docs://readme', 'notes://notes/groceries']);
      const rest = await post(t.server, rpc('resources/list', { cursor: after.body.result.nextCursor }));
      expect(titles(rest.body.result)).toEqual(['notes://notes/greek%20trip', 'notes://notes/alpha']);
    } finally {
      store.notes.delete('alpha');
    }
  });

  it('are asked for on every list when they share the first page with fixed resources, which is built afresh', async () => {
    const store = t.app.get(NoteStore);
    const kept = new Map(store.notes);
    try {
      expect(titles((await post(t.server, rpc('resources/list'))).body.result)).toEqual(['docs://readme', 'notes://notes/groceries']);
      store.notes.delete('groceries');
      expect(titles((await post(t.server, rpc('resources/list'))).body.result)).toEqual(['docs://readme', 'notes://notes/greek%20trip']);
    } finally {
      store.notes.clear();
      for (const [title, text] of kept) store.notes.set(title, text);
    }
  });

  it('are asked for again on a list of one page, which is not kept either', async () => {
    const single = await createTestApp({ providers: [NoteStore, NoteTemplate] });
    try {
      expect(titles((await post(single.server, rpc('resources/list'))).body.result)).toEqual(['notes://notes/groceries', 'notes://notes/greek%20trip']);
      single.app.get(NoteStore).notes.delete('groceries');
      expect(titles((await post(single.server, rpc('resources/list'))).body.result)).toEqual(['notes://notes/greek%20trip']);
    } finally {
      await single.close();
    }
  });

  it('are asked for on every list when the first page holds fixed resources alone, which says whether more follow', async () => {
    const fixedFirst = await createTestApp({ providers: [NoteStore, ReadmeResource, NoteTemplate], options: { pageSize: 1 } });
    try {
      const store = fixedFirst.app.get(NoteStore);
      const kept = new Map(store.notes);
      listedFor.length = 0;
      const first = (await post(fixedFirst.server, rpc('resources/list'))).body.result;
      expect(titles(first)).toEqual(['docs://readme']);
      store.notes.clear();
      const alone = (await post(fixedFirst.server, rpc('resources/list'))).body.result;
      expect(alone).toEqual({ ...first, nextCursor: undefined });
      expect(alone).not.toHaveProperty('nextCursor');
      for (const [title, text] of kept) store.notes.set(title, text);
      const again = (await post(fixedFirst.server, rpc('resources/list'))).body.result;
      expect(again).toEqual(first);
      expect(listedFor).toEqual(Array(3).fill('notes://notes/{title}'));
      const rest = await post(fixedFirst.server, rpc('resources/list', { cursor: again.nextCursor }));
      expect(titles(rest.body.result)).toEqual(['notes://notes/groceries']);
    } finally {
      await fixedFirst.close();
    }
  });

  it('are paged alike on every walk through many pages when they start the list, beside the templates’ own list (only each list’s first cursor is kept)', async () => {
    const paged = await createTestApp({ providers: [NoteStore, NoteTemplate, FileTemplate], options: { pageSize: 1 } });
    try {
      const walk = async (method: string, member: string, key: string) => {
        const pages: string[][] = [];
        let cursor: unknown;
        do {
          const result = (await post(paged.server, rpc(method, cursor === undefined ? {} : { cursor }))).body.result;
          pages.push(result[member].map((item: Record<string, string>) => item[key]));
          cursor = result.nextCursor;
        } while (cursor !== undefined && pages.length < 5);
        return pages;
      };
      const resources = [['notes://notes/groceries'], ['notes://notes/greek%20trip'], ['files:///logo.png']];
      const templates = [['notes://notes/{title}'], ['files:///{+path}']];
      expect(await walk('resources/templates/list', 'resourceTemplates', 'uriTemplate')).toEqual(templates);
      expect(await walk('resources/list', 'resources', 'uri')).toEqual(resources);
      expect(await walk('resources/list', 'resources', 'uri')).toEqual(resources);
      expect(await walk('resources/templates/list', 'resourceTemplates', 'uriTemplate')).toEqual(templates);
    } finally {
      await paged.close();
    }
  });

  it('are listed to a 2025-era client alike', async () => {
    const modern = await post(t.server, rpc('resources/list'));
    const legacy = await legacyPost(t.server, { jsonrpc: '2.0', id: 2, method: 'resources/list', params: {} });
    expect(legacy.messages[0]!.result.resources).toEqual(modern.body.result.resources);
  });

  it('hand list() a context naming the template', async () => {
    listedFor.length = 0;
    await post(t.server, rpc('resources/list'));
    expect(listedFor).toEqual(['notes://notes/{title}']);
  });
});

describe('a template whose list() fails', () => {
  /** A template at `bad://{id}` whose list() returns or throws `outcome`. */
  function listing(outcome: () => unknown): Type {
    @McpResourceTemplate({ uriTemplate: 'bad://{id}', name: 'bad' })
    class BadTemplate {
      read(uri: string) {
        return uri;
      }

      list() {
        return outcome();
      }
    }
    return BadTemplate;
  }

  it.each([
    ['not an array', () => ({ uri: 'bad://1', name: 'one' }), /list\(\) must return an array of resources, not \{ uri: 'bad:\/\/1', name: 'one' \}$/],
    ['an entry that is no object', () => ['bad://1'], /list\(\) returned resources\[0\], which is not an object: bad:\/\/1$/],
    ['an entry without its name', () => [{ uri: 'bad://1' }], /list\(\) returned resources\[0\], which is not a valid MCP Resource: \/: missing required property "name"$/],
    [
      'an entry JSON cannot carry',
      () => [{ uri: 'bad://1', name: 'one', size: 10n }],
      /list\(\) returned a value JSON cannot carry, at #\/resources\/0\/size: a BigInt is not a JSON value$/,
    ],
    [
      'a URI the template does not match',
      () => [{ uri: 'other://1', name: 'one' }],
      /list\(\) returned resources\[0\] at "other:\/\/1", which its uriTemplate "bad:\/\/\{id\}" does not match/,
    ],
    [
      'a thrown error',
      () => {
        throw new Error('the store is down');
      },
      /Error: the store is down$/,
    ],
  ])('is a fault, 500 + -32603, its reason on mcp:method:error (%s)', async (_what, outcome, reason) => {
    const app = await createTestApp({ providers: [listing(outcome)] });
    try {
      let status = 0;
      let code = 0;
      const events = await recordEvents(['mcp:method:error'], async () => {
        const res = await post(app.server, rpc('resources/list'));
        [status, code] = [res.status, res.body.error.code];
      });
      expect([status, code]).toEqual([500, -32603]);
      expect(events[0]!.message).toMatchObject({ method: 'resources/list' });
      expect(String(events[0]!.message.error)).toMatch(reason);
    } finally {
      await app.close();
    }
  });

  it('answers a Nest HttpException it throws as the list’s refusal, not a fault', async () => {
    const app = await createTestApp({
      providers: [
        listing(() => {
          throw new ForbiddenException('Listing is for members');
        }),
      ],
    });
    try {
      const res = await post(app.server, rpc('resources/list'));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: -32602, message: 'Invalid params: Listing is for members', data: { reason: 'http_exception', status: 403 } });
    } finally {
      await app.close();
    }
  });

  it('is refused at module init when list is not a method', async () => {
    @McpResourceTemplate({ uriTemplate: 'odd://{id}', name: 'odd' })
    class OddTemplate {
      readonly list = ['odd://1'];
      read(uri: string) {
        return uri;
      }
    }
    await expect(createTestApp({ providers: [OddTemplate] })).rejects.toThrow('resource template "odd" (OddTemplate): list must be a method, list(ctx), got [ \'odd://1\' ]');
  });
});

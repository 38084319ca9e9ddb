import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  Injectable,
  InternalServerErrorException,
  NotFoundException,
  ServiceUnavailableException,
  type Type,
} from '@nestjs/common';
import { of } from 'rxjs';

import {
  McpResource,
  McpResourceTemplate,
  resourceNotFound,
  type McpCompletionContext,
  type McpContext,
  type McpResourceHandler,
  type McpResourceTemplateHandler,
  type McpResourceTemplateOptions,
  type McpUriVariables,
} from '../../lib/index.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { NOT_FOUND_URI_MAX_CHARS } from '../../lib/resources/resource-not-found.js';
import { URIS_LISTED } from '../../lib/resources/resource.registry.js';
import { URI_TEMPLATE_OPERATORS, type UriTemplateOperator } from '../../lib/resources/uri-template.js';
import { XResource } from '../resources/fixture-resources.js';
import { EchoTool } from '../support/fixture-tools.js';
import { legacyPost, legacyRequest } from '../support/legacy-client.js';
import { meta, post, recordEvents, rpc } from '../support/mcp-client.js';
import { accept, ALL_INPUT_CAPABILITIES, statePayload } from '../support/mrtr-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const schema = await ProtocolSchema.vendored();
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

// ── resources ────────────────────────────────────────────────────────────────────────────────────────────────────

@McpResource({ uri: 'docs://readme', name: 'readme', title: 'Read me', description: 'The read-me.', mimeType: 'text/markdown', size: 7 })
class ReadmeResource implements McpResourceHandler {
  read() {
    return '# Hello';
  }
}

@McpResource({ uri: 'docs://logo', name: 'logo', mimeType: 'image/png', annotations: { audience: ['user'], priority: 0.5 } })
class LogoResource implements McpResourceHandler {
  read() {
    return PNG;
  }
}

@McpResource({ uri: 'docs://bundle', name: 'bundle', mimeType: 'text/plain' })
class BundleResource implements McpResourceHandler {
  read() {
    return [
      'first',
      { text: '{"second":true}', mimeType: 'application/json' },
      { uri: 'docs://bundle/raw', blob: new Uint8Array([1, 2, 3]), _meta: { part: 3 } },
      { uri: 'docs://bundle/b64', blob: 'AAEC' },
    ];
  }
}

@McpResource({ uri: 'docs://cached', name: 'cached', cache: { ttlMs: 60_000, cacheScope: 'public' } })
class CachedResource implements McpResourceHandler {
  read() {
    return 'cached for a minute';
  }
}

/** What the next read of `docs://broken` returns: set by each fault test. */
let brokenReturn: () => unknown = () => 'ok';

@McpResource({ uri: 'docs://broken', name: 'broken', icons: [{ src: 'https://example.com/broken.png', mimeType: 'image/png' }] })
class BrokenResource implements McpResourceHandler {
  read() {
    return brokenReturn() as string;
  }
}

@McpResource({ uri: 'docs://secret', name: 'secret', description: 'Asks the user before it is read.' })
class SecretResource implements McpResourceHandler {
  async read(ctx: McpContext) {
    const answer = await ctx.elicit(
      { message: `Reveal ${ctx.resource}?`, requestedSchema: { type: 'object', properties: { reveal: { type: 'boolean' } }, required: ['reveal'] } },
      { key: 'reveal' },
    );
    return answer.action === 'accept' && answer.content?.reveal === true ? `the secret of ${ctx.resource}` : 'not revealed';
  }
}

// ── templates ────────────────────────────────────────────────────────────────────────────────────────────────────

/** Where template reads record what they were handed. */
const handed: { uri: string; variables: McpUriVariables; resource: string | undefined }[] = [];

@Injectable()
class UserDirectory {
  readonly users = ['ada', 'alan', 'alonzo', 'barbara', 'grace'];
}

@McpResourceTemplate({
  uriTemplate: 'users://{id}/profile',
  name: 'user-profile',
  title: 'User profile',
  mimeType: 'application/json',
  cache: { ttlMs: 1000, cacheScope: 'private' },
  complete: { id: 'completeId' },
})
class UserProfileTemplate implements McpResourceTemplateHandler {
  constructor(private readonly directory: UserDirectory) {}

  read(uri: string, variables: McpUriVariables, ctx: McpContext) {
    handed.push({ uri, variables, resource: ctx.resource });
    if (!this.directory.users.includes(variables.id ?? '')) throw resourceNotFound(uri);
    return JSON.stringify({ id: variables.id });
  }

  completeId(value: string, _context: McpCompletionContext, ctx: McpContext) {
    if (value === '*') throw new ForbiddenException('Listing every user is not allowed');
    if (value === '?') return [`resource ${ctx.resource}`, `prompt ${ctx.prompt}`];
    return this.directory.users.filter((user) => user.startsWith(value));
  }
}

@McpResourceTemplate({
  uriTemplate: 'numbers://{group}/{n}',
  name: 'numbers',
  complete: {
    n: (value, context) => Array.from({ length: 250 }, (_, i) => `${context.arguments.group ?? 'n'}-${i}`).filter((v) => v.includes(value)),
  },
})
class NumbersTemplate implements McpResourceTemplateHandler {
  read(uri: string) {
    return `number at ${uri}`;
  }
}

/**
 * One template per operator this library matches, with a URI and the variables its read must be handed (a `%25`
 * decoded once; a comma kept in a reserved value).
 */
const OPERATOR_CELLS = {
  '': ['sweep://simple/{name}', 'sweep://simple/J%C3%BCrgen%20M%2541', { name: 'Jürgen M%41' }],
  '+': ['sweep://reserved/{+path}', 'sweep://reserved/a/b,c.txt', { path: 'a/b,c.txt' }],
  '#': ['sweep://fragment{#section}', 'sweep://fragment#intro/part-2', { section: 'intro/part-2' }],
  '.': ['sweep://label/file{.ext}', 'sweep://label/file.tar.gz', { ext: 'tar.gz' }],
  '/': ['sweep://path{/a,b}', 'sweep://path/x/y', { a: 'x', b: 'y' }],
  ';': ['sweep://matrix{;x,y}', 'sweep://matrix;x=1;y', { x: '1', y: '' }],
  '?': ['sweep://query{?q,lang}', 'sweep://query?q=cats&lang=en', { q: 'cats', lang: 'en' }],
  '&': ['sweep://continued?fixed=1{&page}', 'sweep://continued?fixed=1&page=2', { page: '2' }],
} satisfies Record<UriTemplateOperator, [string, string, Record<string, string>]>;

/** A template class recording what its read is handed, for each operator cell. */
function sweepTemplate(operator: UriTemplateOperator): Type {
  class SweepTemplate implements McpResourceTemplateHandler {
    read(uri: string, variables: McpUriVariables, ctx: McpContext) {
      handed.push({ uri, variables, resource: ctx.resource });
      return JSON.stringify(variables);
    }
  }
  McpResourceTemplate({ uriTemplate: OPERATOR_CELLS[operator][0], name: `sweep-${operator || 'simple'}` } as McpResourceTemplateOptions)(SweepTemplate);
  return SweepTemplate;
}

const OPERATORS = Object.keys(URI_TEMPLATE_OPERATORS) as UriTemplateOperator[];
const RESOURCES = [ReadmeResource, LogoResource, BundleResource, CachedResource, BrokenResource, SecretResource];
const TEMPLATES = [UserProfileTemplate, NumbersTemplate, ...OPERATORS.map(sweepTemplate)];

const read = (server: TestApp['server'], uri: string, params: Record<string, unknown> = {}) => post(server, rpc('resources/read', { uri, ...params }));

/** Every page of a list, following `nextCursor`; each answer is 200 and valid against the result definition. */
async function everyPage(server: TestApp['server'], method: string, definition: string): Promise<Record<string, any>[]> {
  const pages: Record<string, any>[] = [];
  let cursor: string | undefined;
  do {
    const res = await post(server, rpc(method, cursor === undefined ? {} : { cursor }));
    expect(res.status).toBe(200);
    expect(schema.check(definition, res.body.result)).toEqual([]);
    pages.push(res.body.result);
    cursor = res.body.result.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

describe('resources', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [UserDirectory, ...RESOURCES, ...TEMPLATES, EchoTool],
      options: { pageSize: 4, cache: { ttlMs: 5, cacheScope: 'private' } },
    });
  });
  afterAll(() => t.close());

  describe('capabilities', () => {
    it('advertises resources (and completions, since a template declares a completer)', async () => {
      const res = await post(t.server, rpc('server/discover'));
      expect(res.body.result.capabilities.resources).toEqual(expect.any(Object));
      expect(res.body.result.capabilities.completions).toEqual({});
    });

    it('advertises logging on a server of resources alone, since a read may log', async () => {
      const alone = await createTestApp({ providers: [RESOURCES[0]!] });
      try {
        const discovered = await post(alone.server, rpc('server/discover'));
        expect(discovered.body.result.capabilities).toEqual({ resources: { subscribe: true, listChanged: true }, logging: {} });
      } finally {
        await alone.close();
      }
    });

    it('advertises no resources, and serves none of their methods (-32601 naming the capability), when none is declared', async () => {
      const bare = await createTestApp({ providers: [EchoTool] });
      try {
        const discovered = await post(bare.server, rpc('server/discover'));
        expect(discovered.body.result.capabilities).not.toHaveProperty('resources');
        for (const method of ['resources/list', 'resources/templates/list', 'resources/read']) {
          const res = await post(bare.server, rpc(method, method === 'resources/read' ? { uri: 'docs://readme' } : {}));
          expect(res.status).toBe(404);
          expect(res.body.error).toEqual({ code: -32601, message: `Method not found: "${method}" is not served by this server (it advertises no "resources" capability).` });
        }
      } finally {
        await bare.close();
      }
    });

    it('serves the lists when only a template is declared (resources/list is then empty)', async () => {
      const only = await createTestApp({ providers: [NumbersTemplate] });
      try {
        const res = await post(only.server, rpc('resources/list'));
        expect(res.body.result).toMatchObject({ resultType: 'complete', resources: [] });
      } finally {
        await only.close();
      }
    });
  });

  describe('resources/list', () => {
    it('lists the resources in declaration order, a page at a time, each page with the caching hints', async () => {
      const pages = await everyPage(t.server, 'resources/list', 'ListResourcesResult');
      expect(pages.map((page) => page.resources.map((r: { uri: string }) => r.uri))).toEqual([
        ['docs://readme', 'docs://logo', 'docs://bundle', 'docs://cached'],
        ['docs://broken', 'docs://secret'],
      ]);
      expect(pages[0]!.nextCursor).toEqual(expect.any(String));
      expect(pages[1]).not.toHaveProperty('nextCursor');
      for (const page of pages) expect(page).toMatchObject({ ttlMs: 5, cacheScope: 'private' });
    });

    it('publishes each definition as declared, with only the members given', async () => {
      const res = await post(t.server, rpc('resources/list'));
      expect(res.body.result.resources.slice(0, 2)).toEqual([
        { uri: 'docs://readme', name: 'readme', title: 'Read me', description: 'The read-me.', mimeType: 'text/markdown', size: 7 },
        { uri: 'docs://logo', name: 'logo', mimeType: 'image/png', annotations: { audience: ['user'], priority: 0.5 } },
      ]);
    });

    it('refuses a tampered cursor with 400 + -32602 (invalid_cursor)', async () => {
      const first = await post(t.server, rpc('resources/list'));
      const cursor = first.body.result.nextCursor as string;
      const tampered = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
      const res = await post(t.server, rpc('resources/list', { cursor: tampered }, 'tampered'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ id: 'tampered', error: { code: -32602, data: { reason: 'invalid_cursor' } } });
    });

    it("refuses another list's cursor (a tools/list cursor) with 400 + -32602", async () => {
      const paged = await createTestApp({ providers: [XResource, EchoTool], options: { pageSize: 1 } });
      try {
        const toolsCursor = (await post(paged.server, rpc('tools/list'))).body.result.nextCursor as string;
        expect(toolsCursor).toEqual(expect.any(String));
        const res = await post(paged.server, rpc('resources/list', { cursor: toolsCursor }));
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_cursor' } });
        expect(res.body.error.message).toContain('resources/list');
      } finally {
        await paged.close();
      }
    });

    it('answers the legacy era without resultType or caching hints', async () => {
      const res = await legacyPost(t.server, { jsonrpc: '2.0', id: 'l', method: 'resources/list', params: {} });
      expect(res.status).toBe(200);
      expect(Object.keys(res.messages[0]!.result).sort()).toEqual(['nextCursor', 'resources']);
    });
  });

  describe('resources/templates/list', () => {
    it('lists the templates in declaration order, a page at a time', async () => {
      const pages = await everyPage(t.server, 'resources/templates/list', 'ListResourceTemplatesResult');
      for (const page of pages) expect(page).toMatchObject({ ttlMs: 5, cacheScope: 'private' });
      const listed = pages.flatMap((page) => page.resourceTemplates as Record<string, any>[]);
      expect(listed.map((template) => template.uriTemplate)).toEqual(['users://{id}/profile', 'numbers://{group}/{n}', ...OPERATORS.map((op) => OPERATOR_CELLS[op][0])]);
      expect(listed[0]).toEqual({ uriTemplate: 'users://{id}/profile', name: 'user-profile', title: 'User profile', mimeType: 'application/json' });
    });

    it('refuses a resources/list cursor', async () => {
      const cursor = (await post(t.server, rpc('resources/list'))).body.result.nextCursor as string;
      const res = await post(t.server, rpc('resources/templates/list', { cursor }));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_cursor' } });
    });
  });

  describe('resources/read: contents', () => {
    it('sends a string as text, with the URI read and the declared MIME type', async () => {
      const res = await read(t.server, 'docs://readme');
      expect(res.status).toBe(200);
      expect(schema.check('ReadResourceResult', res.body.result)).toEqual([]);
      expect(res.body.result).toMatchObject({ resultType: 'complete', contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' }] });
    });

    it('sends bytes as a base64 blob', async () => {
      const res = await read(t.server, 'docs://logo');
      expect(res.body.result.contents).toEqual([{ uri: 'docs://logo', mimeType: 'image/png', blob: PNG.toString('base64') }]);
    });

    it("completes a template's read with the URI read and the template's declared mimeType", async () => {
      const res = await read(t.server, 'users://ada/profile');
      expect(res.body.result.contents).toEqual([{ uri: 'users://ada/profile', mimeType: 'application/json', text: '{"id":"ada"}' }]);
    });

    it('sends several contents, each keeping its own uri and mimeType and taking the declared ones where it has none', async () => {
      const res = await read(t.server, 'docs://bundle');
      expect(schema.check('ReadResourceResult', res.body.result)).toEqual([]);
      expect(res.body.result.contents).toEqual([
        { uri: 'docs://bundle', mimeType: 'text/plain', text: 'first' },
        { uri: 'docs://bundle', mimeType: 'application/json', text: '{"second":true}' },
        { uri: 'docs://bundle/raw', mimeType: 'text/plain', blob: 'AQID', _meta: { part: 3 } },
        { uri: 'docs://bundle/b64', mimeType: 'text/plain', blob: 'AAEC' },
      ]);
    });

    it('answers the legacy era with the contents, without resultType or caching hints', async () => {
      const res = await legacyPost(t.server, { jsonrpc: '2.0', id: 'lr', method: 'resources/read', params: { uri: 'docs://readme' } });
      expect(res.messages[0]).toEqual({ jsonrpc: '2.0', id: 'lr', result: { contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' }] } });
    });
  });

  describe('resources/read: caching hints', () => {
    it("puts a resource's own hints on its reads", async () => {
      const res = await read(t.server, 'docs://cached');
      expect(res.body.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    });

    it("leaves a resource's own hints off its reads on the legacy era, whose revisions have no caching hints", async () => {
      const res = await legacyPost(t.server, { jsonrpc: '2.0', id: 'lc', method: 'resources/read', params: { uri: 'docs://cached' } });
      expect(Object.keys(res.messages[0]!.result)).toEqual(['contents']);
    });

    it("puts a template's own hints on the reads it matches", async () => {
      const res = await read(t.server, 'users://ada/profile');
      expect(res.body.result).toMatchObject({ ttlMs: 1000, cacheScope: 'private' });
    });

    it("puts the module's cache option on the reads of a resource that declares none", async () => {
      const res = await read(t.server, 'docs://readme');
      expect(res.body.result).toMatchObject({ ttlMs: 5, cacheScope: 'private' });
    });
  });

  describe('resources/read: templates', () => {
    describe.each(OPERATORS)('operator %j', (operator) => {
      const [uriTemplate, uri, variables] = OPERATOR_CELLS[operator];
      it(`hands ${uriTemplate}'s read the variables ${uri} gives`, async () => {
        handed.length = 0;
        const res = await read(t.server, uri);
        expect(res.status).toBe(200);
        expect(JSON.parse(res.body.result.contents[0].text)).toEqual(variables);
        expect(res.body.result.contents[0].uri).toBe(uri);
        expect(handed).toEqual([{ uri, variables: expect.objectContaining(variables), resource: uri }]);
      });
    });

    it('prefers the resource at exactly the URI to a template, declared before it, that also matches it', async () => {
      @McpResourceTemplate({ uriTemplate: 'test://{name}', name: 'catch-all' })
      class CatchAll implements McpResourceTemplateHandler {
        read() {
          return 'template';
        }
      }
      const only = await createTestApp({ providers: [CatchAll, XResource] });
      try {
        expect((await read(only.server, 'test://x')).body.result.contents[0].text).toBe('x');
        expect((await read(only.server, 'test://y')).body.result.contents[0].text).toBe('template');
      } finally {
        await only.close();
      }
    });

    it('tries the templates in declaration order: the first that matches reads', async () => {
      @McpResourceTemplate({ uriTemplate: 'order://{a}', name: 'first' })
      class First implements McpResourceTemplateHandler {
        read() {
          return 'first';
        }
      }
      @McpResourceTemplate({ uriTemplate: 'order://{+anything}', name: 'second' })
      class Second implements McpResourceTemplateHandler {
        read() {
          return 'second';
        }
      }
      const ordered = await createTestApp({ providers: [First, Second] });
      try {
        expect((await read(ordered.server, 'order://one')).body.result.contents[0].text).toBe('first');
        expect((await read(ordered.server, 'order://one/two')).body.result.contents[0].text).toBe('second');
      } finally {
        await ordered.close();
      }
    });
  });

  describe('resources/read: refusals', () => {
    it('refuses a URI no resource or template matches with 400 + -32602 and data {uri}, never empty contents', async () => {
      const res = await read(t.server, 'docs://nowhere', {});
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: -32602,
        // What is served follows, so a model that only sees the message can pick a URI that exists.
        message:
          'Resource not found: "docs://nowhere". Resources: docs://readme, docs://logo, docs://bundle, docs://cached, docs://broken, docs://secret. Templates: users://{id}/profile, numbers://{group}/{n}, sweep://simple/{name}, sweep://reserved/{+path}, sweep://fragment{#section}, sweep://label/file{.ext}, sweep://path{/a,b}, sweep://matrix{;x,y}, sweep://query{?q,lang}, sweep://continued?fixed=1{&page}.',
        data: { uri: 'docs://nowhere' },
      });
    });

    it(`lists at most ${URIS_LISTED} resources in the message, then an ellipsis`, async () => {
      const many = Array.from({ length: URIS_LISTED + 2 }, (_, i) => {
        @McpResource({ uri: `many://${i}`, name: `many-${i}` })
        class Many {
          read() {
            return 'x';
          }
        }
        return Many;
      });
      const crowded = await createTestApp({ providers: many });
      try {
        const res = await read(crowded.server, 'many://nope', {});
        expect(URIS_LISTED).toBe(10); // as docs/resources.md says
        const listed = Array.from({ length: URIS_LISTED }, (_, i) => `many://${i}`).join(', ');
        expect(res.body.error.message).toBe(`Resource not found: "many://nope". Resources: ${listed}, ….`);
      } finally {
        await crowded.close();
      }
    });

    it.each(['docs://README', 'docs://readme/'])('refuses %s: a resource is read at exactly its URI, case and all', async (uri) => {
      const res = await read(t.server, uri);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: -32602, data: { uri } });
    });

    it('refuses, the same way, a URI a template matched but whose read found nothing (resourceNotFound)', async () => {
      const res = await read(t.server, 'users://nobody/profile');
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: -32602, data: { uri: 'users://nobody/profile' } });
    });

    it('bounds the URI it quotes back', async () => {
      const uri = `docs://${'a'.repeat(5000)}`;
      const res = await read(t.server, uri);
      expect(res.body.error.code).toBe(-32602);
      expect(res.body.error.data.uri.length).toBe(NOT_FOUND_URI_MAX_CHARS);
      expect(NOT_FOUND_URI_MAX_CHARS).toBe(2048); // as docs/resources.md says
      // The quoted URI is cut; what is served follows it.
      const quoted = res.body.error.message.indexOf('. Resources: docs://readme');
      expect(quoted).toBeGreaterThan(0);
      expect(quoted).toBeLessThan(300);
    });

    it('refuses a uri that is not a URI at method routing (-32602, distilled)', async () => {
      const body = rpc('resources/read', { uri: 'not a uri' });
      const res = await post(t.server, body, { 'mcp-name': 'not a uri' });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32602);
      expect(res.body.error.data.errors[0].location).toBe('/params/uri');
    });
  });

  describe('resources/read: faults in read() are contained (500 + -32603)', () => {
    it.each([
      ['a number', () => 42, 'MalformedResourceResultError', /returned a value that is neither text, bytes nor a contents object: 42/],
      ['nothing (undefined)', () => undefined, 'MalformedResourceResultError', /returned a value that is undefined: return the contents, or throw resourceNotFound\(uri\)/],
      ['an array of one number', () => [42], 'MalformedResourceResultError', /returned contents\[0\] that is neither text, bytes nor a contents object: 42/],
      ['an empty array', () => [], 'MalformedResourceResultError', /returned no contents; throw resourceNotFound\(uri\)/],
      ['a contents object with both text and blob', () => ({ text: 'a', blob: 'AA==' }), 'MalformedResourceResultError', /must hold exactly one of text and blob/],
      ['a contents object with an unknown key', () => ({ text: 'a', body: 'b' }), 'MalformedResourceResultError', /has unknown key\(s\) "body"/],
      [
        'a contents object with annotations (a Resource key, not a contents one)',
        () => ({ text: 'a', annotations: { priority: 1 } }),
        'MalformedResourceResultError',
        /has unknown key\(s\) "annotations"/,
      ],
      ['a blob that is not base64', () => ({ blob: 'not base64!' }), 'MalformedResourceResultError', /\/contents\/0\/blob: must be a valid byte, such as "QUJD" \(base64\)/],
      [
        'two contents objects the schema refuses (each problem named)',
        () => [{ uri: 'no uri', text: 'a' }, { blob: 'not base64!' }],
        'MalformedResourceResultError',
        /\/contents\/0\/uri: must be a valid uri, such as "https:\/\/example\.com\/a" \(absolute, with a scheme\); \/contents\/1\/blob: must be a valid byte, such as "QUJD" \(base64\)/,
      ],
      ['a _meta JSON cannot carry', () => ({ text: 'a', _meta: { size: 1n } }), 'MalformedResourceResultError', /holds a _meta JSON cannot carry/],
      [
        'a blob that is not base64 but for a line break',
        () => ({ blob: 'not base64 ###\n' }),
        'MalformedResourceResultError',
        /\/contents\/0\/blob: must be a valid byte, such as "QUJD" \(base64\)/,
      ],
      ['a blob of base64 lines', () => ({ blob: 'QUJD\nQUJD' }), 'MalformedResourceResultError', /\/contents\/0\/blob: must be a valid byte, such as "QUJD" \(base64\)/],
      ['an array with a hole', () => Object.assign([], { 1: 'x' }), 'MalformedResourceResultError', /returned contents\[0\] that is undefined: return the contents/],
      [
        'a contents uri that is not a URI',
        () => ({ uri: 'no uri', text: 'a' }),
        'MalformedResourceResultError',
        /resource "broken" \(BrokenResource\) read\(\) returned contents .*\/contents\/0\/uri: must be a valid uri, such as "https:\/\/example\.com\/a" \(absolute, with a scheme\)/,
      ],
      [
        'an Observable (a Nest controller habit)',
        () => of('text'),
        'MalformedResourceResultError',
        /^MalformedResourceResultError: resource "broken" \(BrokenResource\) read\(\) returned a value that is an Observable, which is never subscribed to: return a Promise instead \(lastValueFrom/,
      ],
      ['a Map', () => new Map([['text', 'a']]), 'MalformedResourceResultError', /returned a value that is a Map, which JSON cannot carry .*Object\.fromEntries\(map\)/],
      ['an array of one Set', () => [new Set(['a'])], 'MalformedResourceResultError', /returned contents\[0\] that is a Set, which JSON cannot carry .*Array\.from\(set\)/],
      ['a whole result instead of contents', () => ({ contents: [{ uri: 'docs://broken', text: 'a' }] }), 'MalformedResourceResultError', /has unknown key\(s\) "contents"/],
      [
        'a thrown error',
        () => {
          throw new Error('disk on fire');
        },
        'Error',
        /disk on fire/,
      ],
    ])('returning %s', async (_what, returned, exception, error) => {
      brokenReturn = returned;
      try {
        const events = await recordEvents(['mcp:method:error'], async () => {
          const res = await read(t.server, 'docs://broken', {});
          expect(res.status).toBe(500);
          expect(res.body.error).toEqual({ code: -32603, message: 'Internal error while handling resources/read.' });
        });
        expect(events.map((e) => [e.message.exception, e.message.method])).toEqual([[exception, 'resources/read']]);
        expect(events[0]!.message.error).toMatch(error);
      } finally {
        brokenReturn = () => 'ok';
      }
    });

    // A key holding undefined is absent, as JSON writes it: the item is the kind it holds.
    it.each([
      ['text beside an undefined blob', { text: 'a', blob: undefined }, { text: 'a' }],
      ['a blob beside an undefined text', { text: undefined, blob: 'AA==' }, { blob: 'AA==' }],
    ])('reads %s', async (_what, returned, sent) => {
      brokenReturn = () => returned;
      try {
        const res = await read(t.server, 'docs://broken', {});
        expect(res.status).toBe(200);
        expect(res.body.result.contents).toEqual([{ uri: 'docs://broken', ...sent }]);
      } finally {
        brokenReturn = () => 'ok';
      }
    });
  });

  describe("resources/read: a Nest HttpException from read() is the read's answer, not a fault", () => {
    const throwing = (exception: Error) => () => {
      throw exception;
    };
    // data exactly {uri}: the shape the spec writes, and the only one the SDK v2 client raises ResourceNotFoundError for.
    it.each([
      ['with its message', new NotFoundException('User 7 not found'), 'Resource not found: "docs://broken" (User 7 not found).'],
      ['without one', new NotFoundException(), 'Resource not found: "docs://broken" (Not Found).'],
    ])('NotFoundException %s: resource not found, data exactly {uri}, no fault event; 200 on the legacy era', async (_what, exception, message) => {
      brokenReturn = throwing(exception);
      try {
        const events = await recordEvents(['mcp:method:error'], async () => {
          const modern = await read(t.server, 'docs://broken', {});
          const legacy = await legacyPost(t.server, { jsonrpc: '2.0', id: 'h', method: 'resources/read', params: { uri: 'docs://broken' } });
          const sent = { code: -32602, message, data: { uri: 'docs://broken' } };
          expect([modern.status, modern.body.error]).toEqual([400, sent]);
          expect([legacy.status, legacy.messages]).toEqual([200, [{ jsonrpc: '2.0', id: 'h', error: sent }]]);
        });
        expect(events).toEqual([]);
      } finally {
        brokenReturn = () => 'ok';
      }
    });
    it.each([
      ['ForbiddenException', new ForbiddenException('Not yours'), 400, -32602, 'Invalid params: Not yours', 403],
      ['BadRequestException (a ValidationPipe list)', new BadRequestException(['a is wrong', 'b is wrong']), 400, -32602, 'Invalid params: a is wrong; b is wrong', 400],
      ['ServiceUnavailableException (its 503 kept)', new ServiceUnavailableException('The archive is offline'), 503, -32603, 'Internal error: The archive is offline', 503],
      ['HttpException 429 (try later, not a bad request)', new HttpException('Slow down', 429), 429, -32603, 'Internal error: Slow down', 429],
      ['InternalServerErrorException', new InternalServerErrorException('The index is corrupt'), 500, -32603, 'Internal error: The index is corrupt', 500],
    ])('%s: its message and status, data.uri, no fault event; 200 on the legacy era', async (error, exception, status, code, message, httpStatus) => {
      brokenReturn = throwing(exception);
      try {
        const events = await recordEvents(['mcp:method:error'], async () => {
          const modern = await read(t.server, 'docs://broken', {});
          const legacy = await legacyPost(t.server, { jsonrpc: '2.0', id: 'h', method: 'resources/read', params: { uri: 'docs://broken' } });
          const sent = { code, message, data: { reason: 'http_exception', error: error.split(' ')[0], status: httpStatus, uri: 'docs://broken' } };
          expect([modern.status, modern.body.error]).toEqual([status, sent]);
          expect([legacy.status, legacy.messages]).toEqual([200, [{ jsonrpc: '2.0', id: 'h', error: sent }]]);
        });
        expect(events).toEqual([]);
      } finally {
        brokenReturn = () => 'ok';
      }
    });
  });

  describe('resources/read: input requests', () => {
    const readSecret = (params: Record<string, unknown> = {}) =>
      post(t.server, rpc('resources/read', { _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': ALL_INPUT_CAPABILITIES }), uri: 'docs://secret', ...params }));

    it('asks on the modern era with an input-required result (no caching hints), then completes on the retry', async () => {
      const first = await readSecret();
      expect(first.status).toBe(200);
      expect(first.body.result).toEqual({
        resultType: 'input_required',
        inputRequests: {
          reveal: {
            method: 'elicitation/create',
            params: { message: 'Reveal docs://secret?', requestedSchema: { type: 'object', properties: { reveal: { type: 'boolean' } }, required: ['reveal'] } },
          },
        },
        requestState: expect.any(String),
        _meta: expect.any(Object),
      });
      const second = await readSecret({ inputResponses: { reveal: accept({ reveal: true }) }, requestState: first.body.result.requestState });
      expect(second.body.result).toMatchObject({
        resultType: 'complete',
        contents: [{ uri: 'docs://secret', text: 'the secret of docs://secret' }],
        ttlMs: 5,
        cacheScope: 'private',
      });
    });

    it('binds the requestState to the URI: a state sealed for another read is refused', async () => {
      const first = await readSecret();
      expect(statePayload(first.body.result.requestState)).toHaveProperty('exp');
      const res = await post(
        t.server,
        rpc('resources/read', {
          _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': ALL_INPUT_CAPABILITIES }),
          uri: 'docs://readme',
          requestState: first.body.result.requestState,
        }),
      );
      expect(res.status).toBe(400);
      expect(res.body.error.data).toEqual({ reason: 'invalid_request_state', problem: 'other_call' });
    });

    it('refuses an input request the client did not declare the capability for (-32021)', async () => {
      const res = await read(t.server, 'docs://secret');
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    });

    it('asks on the legacy era with a server-to-client request on the read stream, and reads once answered', async () => {
      const call = await legacyRequest(t.server, 'resources/read', { uri: 'docs://secret' }, (request) => ({
        result: { action: 'accept', content: { reveal: request.method === 'elicitation/create' } },
      }));
      expect(call.messages.filter((m) => m.method === 'elicitation/create').map((m) => m.params.message)).toEqual(['Reveal docs://secret?']);
      expect(call.answerStatuses).toEqual([202]);
      expect(call.messages.at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 'request-resources/read',
        result: { contents: [{ uri: 'docs://secret', text: 'the secret of docs://secret' }] },
      });
    });
  });

  describe('completion/complete of template variables', () => {
    const complete = (uri: string, name: string, value: string, context?: Record<string, string>) =>
      post(t.server, rpc('completion/complete', { ref: { type: 'ref/resource', uri }, argument: { name, value }, ...(context && { context: { arguments: context } }) }));

    it('completes a variable through a method of the template class (with what is injected)', async () => {
      const res = await complete('users://{id}/profile', 'id', 'al');
      expect(res.status).toBe(200);
      expect(schema.check('CompleteResult', res.body.result)).toEqual([]);
      expect(res.body.result.completion).toEqual({ values: ['alan', 'alonzo'], total: 2, hasMore: false });
    });

    it("hands a variable's completer the request's context, naming the template it completes and no prompt", async () => {
      const res = await complete('users://{id}/profile', 'id', '?');
      expect(res.body.result.completion.values).toEqual(['resource users://{id}/profile', 'prompt undefined']);
    });

    it('hands a completer the other variables, and sends at most 100 values with total and hasMore', async () => {
      const res = await complete('numbers://{group}/{n}', 'n', '', { group: 'g' });
      expect(res.body.result.completion.values).toHaveLength(100);
      expect(res.body.result.completion.values[0]).toBe('g-0');
      expect(res.body.result.completion).toMatchObject({ total: 250, hasMore: true });
    });

    it("answers a Nest HttpException from a variable's completer as the completion's refusal (400 + -32602), not a fault", async () => {
      const events = await recordEvents(['mcp:method:error'], async () => {
        const res = await complete('users://{id}/profile', 'id', '*');
        expect([res.status, res.body.error]).toEqual([
          400,
          { code: -32602, message: 'Invalid params: Listing every user is not allowed', data: { reason: 'http_exception', error: 'ForbiddenException', status: 403 } },
        ]);
      });
      expect(events).toEqual([]);
    });

    it('completes a variable without a completer to no values', async () => {
      const res = await complete('numbers://{group}/{n}', 'group', 'x');
      expect(res.body.result.completion).toEqual({ values: [], total: 0, hasMore: false });
    });

    it('refuses a name that is not a variable of the template with 400 + -32602', async () => {
      const res = await complete('users://{id}/profile', 'name', 'a');
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: -32602,
        data: { reason: 'unknown_variable', uriTemplate: 'users://{id}/profile', variable: 'name', variables: ['id'] },
      });
    });

    it('bounds a name that is not a variable: to 60 characters in the message and 100 in data, the template quoted whole', async () => {
      const name = 'v'.repeat(150);
      const res = await complete('numbers://{group}/{n}', name, 'a');
      expect(res.body.error.message).toBe(`Invalid params: "${'v'.repeat(57)}…" is not a variable of resource template "numbers://{group}/{n}".`);
      expect(res.body.error.data.variable).toBe(`${'v'.repeat(99)}…`);
    });

    it('leaves a reference to no template to the method (400 + -32602, unknown_ref)', async () => {
      const res = await complete('users://{id}', 'id', 'a');
      expect(res.status).toBe(400);
      expect(res.body.error.data.reason).toBe('unknown_ref');
      // The reader is told which templates there are, to correct the reference (the list's first page begins them).
      const templates = (await post(t.server, rpc('resources/templates/list'))).body.result.resourceTemplates.map((r: { uriTemplate: string }) => r.uriTemplate);
      expect(res.body.error.message.startsWith(`Invalid params: no resource or resource template "users://{id}" to complete. Templates: ${templates.join(', ')}, `)).toBe(
        true,
      );
    });

    it('refuses a ref/prompt on a server without prompts, listing none', async () => {
      const res = await post(t.server, rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'x', value: '' } }));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Invalid params: no prompt "greet" to complete.');
    });

    it('completes on the legacy era too', async () => {
      const res = await legacyPost(t.server, {
        jsonrpc: '2.0',
        id: 'c',
        method: 'completion/complete',
        params: { ref: { type: 'ref/resource', uri: 'users://{id}/profile' }, argument: { name: 'id', value: 'g' } },
      });
      expect(res.messages[0]!.result).toEqual({ completion: { values: ['grace'], total: 1, hasMore: false } });
    });
  });
});

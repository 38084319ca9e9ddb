import { describe, expect, it } from '@jest/globals';
import { Injectable, Scope, type Type } from '@nestjs/common';

import { McpConfigurationError, McpResource, McpResourceTemplate, type McpResourceOptions, type McpResourceTemplateOptions } from '../../lib/index.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';

/** A resource class named `Declared` with a `read()`, or without one when `members` says so. */
function resource(options: Record<string, unknown>, members: Record<string, unknown> = { read: () => 'x' }): Type {
  class Declared {}
  Object.assign(Declared.prototype, members);
  McpResource({ uri: 'app://thing', name: 'thing', ...options } as McpResourceOptions)(Declared);
  return Declared;
}

/** A template class named `Declared`, with a `read()` unless `members` says otherwise. */
function template(options: Record<string, unknown>, members: Record<string, unknown> = { read: () => 'x' }): Type {
  class Declared {}
  Object.assign(Declared.prototype, members);
  McpResourceTemplate({ uriTemplate: 'app://things/{id}', name: 'things', ...options } as McpResourceTemplateOptions)(Declared);
  return Declared;
}

/** One case per offence: the providers to boot, and what the refusal's message must say (where, and the value). */
const OFFENCES: [string, Type[], RegExp][] = [
  ['a URI without a scheme', [resource({ uri: '/thing' })], /^resource "thing" \(Declared\): uri must be an absolute URI, starting with a scheme .*, got "\/thing"$/],
  ['a URI with a space', [resource({ uri: 'app://my thing' })], /^resource "thing" \(Declared\): uri holds a character a URI cannot .*, got "app:\/\/my thing"$/],
  ['a URI with two "#"', [resource({ uri: 'app://a#b#c' })], /uri holds more than one "#", got "app:\/\/a#b#c"$/],
  ['a URI that is not a string', [resource({ uri: 42 })], /^resource "thing" \(Declared\): uri must be a string, got 42$/],
  [
    'a URI the protocol schema refuses',
    [resource({ uri: 'app:' })],
    /^resource "thing" \(Declared\): does not make a valid MCP Resource: \/uri: must be a valid uri, such as "https:\/\/example\.com\/a" \(absolute, with a scheme\)$/,
  ],
  [
    'two resources at one URI',
    [resource({ name: 'a' }), resource({ name: 'b' })],
    /^resource "b" \(Declared\): uri "app:\/\/thing" is already declared by resource "a" \(Declared\)/,
  ],
  [
    'two resources of one name',
    [resource({ uri: 'app://a' }), resource({ uri: 'app://b' })],
    /^resource "thing" \(Declared\): name "thing" is already used by resource "thing"/,
  ],
  [
    'a template named like a resource',
    [resource({}), template({ name: 'thing' })],
    /^resource template "thing" \(Declared\): name "thing" is already used by resource "thing"/,
  ],
  ['an empty name', [resource({ name: '' })], /^resource "" \(Declared\): name must be a non-empty string, got ""$/],
  ['no name', [resource({ name: undefined })], /^resource \(unnamed\) \(Declared\): name must be a non-empty string, got nothing$/],
  ['a template without a name', [template({ name: undefined })], /^resource template \(unnamed\) \(Declared\): name must be a non-empty string, got nothing$/],
  [
    'an unknown option, with its near miss',
    [resource({ url: 'app://x' })],
    /^resource "thing" \(Declared\): @McpResource has unknown option\(s\) "url" \(did you mean "uri"\?\); allowed: uri, name/,
  ],
  ['a malformed MIME type', [resource({ mimeType: 'text' })], /mimeType must be a MIME type such as "text\/plain", got "text"$/],
  ['a MIME type without a subtype', [resource({ mimeType: 'text/' })], /mimeType must be a MIME type such as "text\/plain", got "text\/"$/],
  ['a negative size', [resource({ size: -1 })], /size must be an integer >= 0 \(bytes\), got -1$/],
  ['a title that is not a string', [resource({ title: 7 })], /title must be a string, got 7$/],
  ['a description that is not a string', [resource({ description: false })], /^resource "thing" \(Declared\): description must be a string, got false$/],
  ['a template title that is not a string', [template({ title: ['x'] })], /^resource template "things" \(Declared\): title must be a string, got \[ 'x' \]$/],
  [
    'an annotation audience outside user and assistant',
    [resource({ annotations: { audience: ['robot'] } })],
    /annotations\.audience must be an array of "user" and "assistant", got \[ 'robot' \]$/,
  ],
  ['an annotation priority above 1', [resource({ annotations: { priority: 2 } })], /annotations\.priority must be a number from 0 to 1, got 2$/],
  [
    'an annotation audience with one role outside user and assistant',
    [resource({ annotations: { audience: ['user', 'robot'] } })],
    /annotations\.audience must be an array of "user" and "assistant", got \[ 'user', 'robot' \]$/,
  ],
  ['an annotation priority below 0', [resource({ annotations: { priority: -0.5 } })], /annotations\.priority must be a number from 0 to 1, got -0\.5$/],
  [
    'an annotation lastModified that is no timestamp',
    [resource({ annotations: { lastModified: 'yesterday' } })],
    /annotations\.lastModified must be an ISO 8601 timestamp, got "yesterday"$/,
  ],
  ['icons that are not an array', [resource({ icons: { src: 'app://icon' } })], /^resource "thing" \(Declared\): icons must be an array, got \{ src: 'app:\/\/icon' \}$/],
  [
    'icons holding a value JSON cannot carry',
    [resource({ icons: [{ src: 'app://icon', sizes: [1n] }] })],
    /^resource "thing" \(Declared\): icons hold a value JSON cannot carry, /,
  ],
  ['annotations that are not an object', [resource({ annotations: 'high' })], /^resource "thing" \(Declared\): annotations must be an object, got "high"$/],
  [
    'four icons the protocol schema refuses',
    [resource({ icons: ['a b', 'c d', 'e f', 'g h'].map((src) => ({ src })) })],
    /^resource "thing" \(Declared\): does not make a valid MCP Resource: \/icons\/0\/src: [^;]+; \/icons\/1\/src: [^;]+; \/icons\/2\/src: [^;]+$/,
  ],
  ['a size that is not an integer', [resource({ size: 1.5 })], /size must be an integer >= 0 \(bytes\), got 1\.5$/],
  ['an unknown annotation', [resource({ annotations: { weight: 1 } })], /annotations has unknown option\(s\) "weight"/],
  [
    'an icon whose src is not a URI',
    [resource({ icons: [{ src: 'not a uri' }] })],
    /^resource "thing" \(Declared\): does not make a valid MCP Resource: \/icons\/0\/src: must be a valid uri, such as "https:\/\/example\.com\/a" \(absolute, with a scheme\)$/,
  ],
  ['cache hints without a scope', [resource({ cache: { ttlMs: 5 } })], /^resource "thing" \(Declared\): cache cacheScope must be "public" or "private", got nothing$/],
  ['cache hints that are not an object', [resource({ cache: 60 })], /^resource "thing" \(Declared\): cache must be an object \{ ttlMs, cacheScope \}, got 60$/],
  ['a class without read()', [resource({}, {})], /^resource "thing" \(Declared\): a resource must implement read\(ctx\)$/],
  [
    'a template without a scheme',
    [template({ uriTemplate: '{scheme}://x/{id}' })],
    /^resource template "things" \(Declared\): uriTemplate must start with a URI scheme .*, got "\{scheme\}:\/\/x\/\{id\}"$/,
  ],
  ['a template with a level 4 modifier', [template({ uriTemplate: 'app://things/{id:3}' })], /uriTemplate uses a level 4 modifier in "\{id:3\}"/],
  ['a template with an explode modifier', [template({ uriTemplate: 'app://things{/path*}' })], /uriTemplate uses a level 4 modifier in "\{\/path\*\}"/],
  ['a template with a reserved operator', [template({ uriTemplate: 'app://things/{=id}' })], /uriTemplate uses the operator "=" in "\{=id\}", which RFC 6570 reserves/],
  ['a template that does not parse', [template({ uriTemplate: 'app://things/{id' })], /uriTemplate has a "\{" at 13 that is never closed, got "app:\/\/things\/\{id"$/],
  ['a template without variables', [template({ uriTemplate: 'app://things' })], /uriTemplate has no \{variable\}; a URI without variables is a resource/],
  [
    'two templates of one uriTemplate',
    [template({ name: 'a' }), template({ name: 'b' })],
    /^resource template "b" \(Declared\): uriTemplate "app:\/\/things\/\{id\}" is already declared by resource template "a"/,
  ],
  [
    'two templates equal up to variable names',
    [template({ name: 'by-title', uriTemplate: 'app://things/{title}' }), template({ name: 'by-id' })],
    /^resource template "by-id" \(Declared\): uriTemplate "app:\/\/things\/\{id\}" matches the same URIs as "app:\/\/things\/\{title\}" of resource template "by-title" \(Declared\) \(they differ only in variable names\), which is tried first, so this template could never be read$/,
  ],
  [
    'two templates of one query whose names come in another order',
    [template({ name: 'a', uriTemplate: 'app://search{?q,lang}' }), template({ name: 'b', uriTemplate: 'app://search{?lang,q}' })],
    /^resource template "b" \(Declared\): uriTemplate "app:\/\/search\{\?lang,q\}" matches the same URIs as "app:\/\/search\{\?q,lang\}" of resource template "a"/,
  ],
  ['a uriTemplate that is not a string', [template({ uriTemplate: 42 })], /^resource template "things" \(Declared\): uriTemplate must be a string, got 42$/],
  ['a template option only resources have', [template({ size: 3 })], /@McpResourceTemplate has unknown option\(s\) "size"/],
  [
    'a completer for a variable the template lacks',
    [template({ complete: { name: () => [] } })],
    /complete names the variable "name", which the template does not have; its variables: id$/,
  ],
  [
    'a completer naming a missing method',
    [template({ complete: { id: 'suggestIds' } })],
    /complete\.id must be a function or the name of a method of the class, and "suggestIds" is none$/,
  ],
  ['a complete option that is not an object', [template({ complete: 'id' })], /complete must be an object mapping variable names to completers, got "id"$/],
  ['a completer that is neither', [template({ complete: { id: 42 } })], /complete\.id must be a function or the name of a method of the class, got 42$/],
  ['a template class without read()', [template({}, {})], /^resource template "things" \(Declared\): a resource template must implement read\(uri, variables, ctx\)$/],
];

describe('resources: module init refusals', () => {
  it.each(OFFENCES)('refuses %s with a McpConfigurationError naming the declaration and the value', async (_offence, providers, message) => {
    const started = createTestApp({ providers });
    await expect(started).rejects.toBeInstanceOf(McpConfigurationError);
    await expect(started).rejects.toThrow(message);
  });

  it.each([
    ['@McpResource', null, 'resource', McpResource],
    ['@McpResourceTemplate', 'app://things/{id}', 'resource template', McpResourceTemplate],
  ] as const)('refuses %s given %p, which would otherwise serve nothing', async (decorator, options, kind, decorate) => {
    class Bare {
      read() {
        return 'x';
      }
    }
    (decorate as (options: unknown) => ClassDecorator)(options)(Bare);
    const started = createTestApp({ providers: [Bare] });
    await expect(started).rejects.toBeInstanceOf(McpConfigurationError);
    await expect(started).rejects.toThrow(`${kind} (Bare): ${decorator} takes an options object, got ${JSON.stringify(options)}`);
  });

  it('refuses a class marked both @McpResource and @McpResourceTemplate', async () => {
    const Both = resource({});
    McpResourceTemplate({ uriTemplate: 'app://things/{id}', name: 'things' })(Both);
    await expect(createTestApp({ providers: [Both] })).rejects.toThrow(/^resource "thing" \(Declared\): is marked both @McpResource and @McpResourceTemplate/);
  });

  it('refuses a request-scoped resource', async () => {
    @Injectable({ scope: Scope.REQUEST })
    @McpResource({ uri: 'app://scoped', name: 'scoped' })
    class Scoped {
      read() {
        return 'x';
      }
    }
    await expect(createTestApp({ providers: [Scoped] })).rejects.toThrow(/^resource "scoped" \(Scoped\): a resource must be a singleton provider/);
  });

  it('wires in one instance once, however many tokens provide it', async () => {
    const Thing = resource({});
    const app = await createTestApp({ providers: [Thing, { provide: 'alias', useExisting: Thing }] });
    try {
      const res = await post(app.server, rpc('resources/list'));
      expect(res.body.result.resources).toEqual([{ uri: 'app://thing', name: 'thing' }]);
    } finally {
      await app.close();
    }
  });

  it('accepts the edges of what it checks: a MIME type with parameters, size 0, priorities 0 and 1, both roles, a timestamp', async () => {
    const edges = {
      mimeType: 'text/plain; charset=utf-8',
      size: 0,
      annotations: { audience: ['user', 'assistant'], priority: 0, lastModified: '2026-01-01T00:00:00Z' },
    };
    const app = await createTestApp({ providers: [resource({ uri: 'app://a', name: 'a', ...edges }), resource({ uri: 'app://b', name: 'b', annotations: { priority: 1 } })] });
    try {
      const res = await post(app.server, rpc('resources/list'));
      expect(res.body.result.resources).toEqual([
        { uri: 'app://a', name: 'a', ...edges },
        { uri: 'app://b', name: 'b', annotations: { priority: 1 } },
      ]);
    } finally {
      await app.close();
    }
  });

  it('wires in one instance once when two value providers hold it', async () => {
    const Thing = resource({});
    const thing = new Thing();
    const app = await createTestApp({
      providers: [
        { provide: 'one', useValue: thing },
        { provide: 'two', useValue: thing },
      ],
    });
    try {
      const res = await post(app.server, rpc('resources/list'));
      expect(res.body.result.resources).toEqual([{ uri: 'app://thing', name: 'thing' }]);
    } finally {
      await app.close();
    }
  });
});

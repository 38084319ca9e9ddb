import { readFile } from 'node:fs/promises';

import { describe, expect, it, jest } from '@jest/globals';

import { CHECKED_DEFINITIONS, precompiledDefinitions } from '../../lib/checked-definitions.js';
import { LEGACY_METHODS, MCP_METHODS, TASKS_METHODS } from '../../lib/index.js';
import { LEGACY_SCHEMA_DOCUMENT, LEGACY_SCHEMA_ID, LegacyProtocolSchema } from '../../lib/protocol/legacy-schema.js';
import { ProtocolSchema, VENDORED_SCHEMA_ID, type ProtocolSchemaDocument } from '../../lib/protocol/protocol-schema.js';
import { protocolValidatorsModule } from '../../lib/protocol/protocol-validators-module.js';
import { correctedSchema } from '../../lib/protocol/schema-corrections.js';
import { TASKS_SCHEMA_DOCUMENT, TASKS_SCHEMA_ID } from '../../lib/tasks/tasks-schema.js';
import { FORMATS, SINGLE_PASS_FORMATS } from '../../lib/validation/add-formats.js';
import { metaSchemaModule } from '../../lib/validation/meta-schema-module.js';
import { withoutUnusedSchemas, type PrecompiledModule } from '../../lib/validation/precompiled-source.js';
import { GreetPrompt, Salutations } from '../prompts/test-prompts.js';
import { ItemTemplate, XResource } from '../resources/fixture-resources.js';
import { EchoTool } from '../support/fixture-tools.js';
import { legacyPost } from '../support/legacy-client.js';
import { post, rpc } from '../support/mcp-client.js';
import { ConfirmDeleteTool, GatherTool } from '../support/mrtr-tools.js';
import { MustTaskTool, tasksRequest } from '../support/task-tools.js';
import { createTestApp } from '../support/test-app.js';

const schemaDir = new URL('../../lib/schema/', import.meta.url);
/** The vendored schema with its corrections, as the library and `npm run precompile:schema` read it. */
const vendoredDocument = correctedSchema(JSON.parse(await readFile(new URL('mcp-2026-07-28.schema.json', schemaDir), 'utf8')) as ProtocolSchemaDocument);

/** What `npm run precompile:schema` writes, generated again from the sources as they are now. */
const generated: Record<string, () => Promise<PrecompiledModule>> = {
  'mcp-2026-07-28': () => protocolValidatorsModule(vendoredDocument, VENDORED_SCHEMA_ID, 'mcp-2026-07-28.schema.json', precompiledDefinitions(vendoredDocument)),
  'mcp-legacy': () => protocolValidatorsModule(LEGACY_SCHEMA_DOCUMENT, LEGACY_SCHEMA_ID, 'lib/protocol/legacy-schema.ts'),
  'mcp-tasks': () => protocolValidatorsModule(TASKS_SCHEMA_DOCUMENT, TASKS_SCHEMA_ID, 'lib/tasks/tasks-schema.ts'),
  'json-schema-2020-12': () => metaSchemaModule(),
};

describe('the precompiled validators in lib/schema', () => {
  it.each(Object.keys(generated))('%s is what its schema and the ajv options generate now (run `npm run precompile:schema` if not)', async (name) => {
    const { source, declarations } = await generated[name]!();
    expect(await readFile(new URL(`${name}.validators.js`, schemaDir), 'utf8')).toBe(source);
    expect(await readFile(new URL(`${name}.validators.d.ts`, schemaDir), 'utf8')).toBe(declarations);
  });

  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const messages: [string, string, unknown][] = [
    ['a valid call', 'CallToolRequest', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: meta } }],
    ['a call without a name or _meta', 'CallToolRequest', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }],
    ['a result of the wrong shapes', 'CallToolResult', { content: [{ type: 'text' }, { type: 'image', data: 1 }], isError: 'no' }],
    ['a notification carrying an id', 'JSONRPCNotification', { jsonrpc: '2.0', id: 3, method: 'notifications/cancelled' }],
  ];

  it.each(messages)('the vendored schema judges %s as runtime compilation does', async (_what, definition, message) => {
    const precompiled = await ProtocolSchema.vendored();
    const compiledNow = new ProtocolSchema(vendoredDocument, VENDORED_SCHEMA_ID);
    expect(precompiled.check(definition, message)).toEqual(compiledNow.check(definition, message));
  });

  it('builds the precompiled validators once per process, however many schema instances (mounts) share them', () => {
    expect(new LegacyProtocolSchema().validator('InitializeRequest')).toBe(new LegacyProtocolSchema().validator('InitializeRequest'));
  });

  it('the legacy schema judges an initialize without clientInfo as runtime compilation does, naming the problem', () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } };
    const problems = new LegacyProtocolSchema().check('InitializeRequest', message);
    expect(problems).toEqual(new ProtocolSchema(LEGACY_SCHEMA_DOCUMENT, LEGACY_SCHEMA_ID).check('InitializeRequest', message));
    expect(JSON.stringify(problems)).toContain('clientInfo');
  });
  it.each(Object.keys(generated))('%s checks formats with the FORMATS it is given, never with ajv-formats directly', async (name) => {
    const { source } = await generated[name]!();
    expect(source).not.toContain('ajv-formats');
  });

  it('the vendored schema checks a URI, a URI template and base64 with the single-pass checks it is given', async () => {
    const calls: string[] = [];
    const spying = Object.fromEntries(
      Object.entries(FORMATS).map(([name, format]) => [name, typeof format === 'function' ? (value: string) => (calls.push(name), format(value)) : format]),
    );
    const precompiled = await import('../../lib/schema/mcp-2026-07-28.validators.js');
    const validators = precompiled.all(spying);
    expect(validators.BlobResourceContents!({ uri: 'notes://a', blob: 'QUJD' })).toBe(true);
    expect(validators.ResourceTemplate!({ name: 'note', uriTemplate: 'notes://{id}' })).toBe(true);
    expect(calls.sort()).toEqual(['byte', 'uri', 'uri-template']);
    for (const name of Object.keys(SINGLE_PASS_FORMATS)) expect(FORMATS[name]).toBe(SINGLE_PASS_FORMATS[name as keyof typeof SINGLE_PASS_FORMATS]);
  });
});

describe("the generated code keeps only the schema constants it reads (ajv's standalone code declares more)", () => {
  it('drops one nothing reads, a ";" inside its strings included, and keeps one something reads', () => {
    const code = [
      'const schema1 = {"description":"a; b","enum":["x;"]};',
      'const schema12 = ["x"];',
      'function validate3(data) { return schema12.includes(data); }',
      'const schema2 = true;',
      'exports.A = validate3;',
    ].join('');
    expect(withoutUnusedSchemas(code)).toBe('const schema12 = ["x"];function validate3(data) { return schema12.includes(data); }exports.A = validate3;');
  });

  it('counts a name only as a whole word: one inside a longer name is no read', () => {
    expect(withoutUnusedSchemas('const schema1 = {"a":1};const subschema1 = schema12;')).toBe('const subschema1 = schema12;');
  });

  it.each(Object.keys(generated))('%s: each export is a parenthesised function, which V8 compiles with the module, not on first call', async (name) => {
    const { source } = await generated[name]!();
    const exports = source.split('\nexport const ').slice(1);
    expect(exports.length).toBeGreaterThan(0);
    for (const scope of exports) {
      expect(scope).toMatch(/^\w+ = \(function \(formats\) \{\n/);
      expect(scope.trimEnd().endsWith('\nreturn exports;\n});')).toBe(true);
    }
  });

  it.each(Object.keys(generated))('%s: every schema constant it declares is read', async (name) => {
    const { source } = await generated[name]!();
    const unread = source
      .split('export const ')
      .slice(1)
      .flatMap((scope) =>
        [...scope.matchAll(/const (schema\d+) = /g)].map((m) => m[1]!).filter((constant) => scope.match(new RegExp(`\\b${constant}\\b`, 'g'))!.length === 1),
      );
    expect(unread).toEqual([]);
  });
});

describe('the vendored definitions the library checks (CHECKED_DEFINITIONS)', () => {
  it("are each precompiled, in both variants, beside the definitions their unions' $ref branches name", async () => {
    const precompiled = await import('../../lib/schema/mcp-2026-07-28.validators.js');
    const expected = precompiledDefinitions(vendoredDocument);
    expect(expected).toEqual(expect.arrayContaining([...CHECKED_DEFINITIONS, 'PromptReference', 'TextContent']));
    expect(Object.keys(precompiled.all(FORMATS)).sort()).toEqual(expected);
    expect(Object.keys(precompiled.first(FORMATS)).sort()).toEqual(expected);
  });

  it("checks a failed union's $ref branches one by one with precompiled validators, compiling none at run time", async () => {
    const vendored = await ProtocolSchema.vendored();
    const compile = jest.spyOn(ProtocolSchema.prototype as unknown as { compile(definition: string): unknown }, 'compile');
    try {
      const content = [{ type: 'image', data: 'QQ==' }, { type: 'resource', resource: { uri: 'x://a' } }, { type: 'txt' }];
      expect(vendored.check('CallToolResult', { resultType: 'complete', content }).map((p) => p.problem)).toEqual([
        'missing required property "mimeType"',
        'missing required property "text" or "blob"',
        'must be one of "text", "image", "audio", "resource_link", "resource"',
      ]);
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });

  it('are exactly what it checks: booting every kind of provider and sending every method of both eras looks up each of them, and compiles none at run time', async () => {
    const vendored = await ProtocolSchema.vendored();
    type Lookups = { compiled(definition: string): unknown; compile(definition: string): unknown };
    const lookup = jest.spyOn(ProtocolSchema.prototype as unknown as Lookups, 'compiled');
    const compile = jest.spyOn(ProtocolSchema.prototype as unknown as Lookups, 'compile');
    const onVendored = (spy: typeof compile) => spy.mock.calls.filter((_call, i) => spy.mock.contexts[i] === vendored).map(([definition]) => definition);
    const t = await createTestApp({ providers: [EchoTool, ConfirmDeleteTool, GatherTool, MustTaskTool, XResource, ItemTemplate, Salutations, GreetPrompt] });
    try {
      const answered: number[] = [];
      for (const method of MCP_METHODS) answered.push((await post(t.server, rpc(method, {}))).status);
      const capabilities = { elicitation: {}, sampling: {}, roots: {} };
      for (const name of ['confirm_delete', 'gather']) {
        const call = rpc('tools/call', { name, arguments: { file: 'f' } });
        (call.params as { _meta: Record<string, unknown> })._meta['io.modelcontextprotocol/clientCapabilities'] = capabilities;
        answered.push((await post(t.server, call)).status);
      }
      for (const method of TASKS_METHODS) answered.push((await tasksRequest(t.server, method, { taskId: 'x' })).status);
      for (const method of LEGACY_METHODS) answered.push((await legacyPost(t.server, { jsonrpc: '2.0', id: 1, method, params: {} })).status);
      expect(answered).toHaveLength(MCP_METHODS.length + 2 + TASKS_METHODS.length + LEGACY_METHODS.length);
      expect([...new Set(onVendored(lookup))].sort()).toEqual(CHECKED_DEFINITIONS);
      expect(onVendored(compile)).toEqual([]);
    } finally {
      lookup.mockRestore();
      compile.mockRestore();
      await t.close();
    }
  });
});

import { readFile } from 'node:fs/promises';

import { describe, expect, it } from '@jest/globals';

import { ProtocolSchema, type ProtocolSchemaDocument } from '../../lib/protocol/protocol-schema.js';
import { correctedSchema, SCHEMA_CORRECTIONS, type SchemaCorrection } from '../../lib/protocol/schema-corrections.js';
import { pointerSegments, valueAt } from '../../lib/util/json-pointer.js';

const vendored = JSON.parse(await readFile(new URL('../../lib/schema/mcp-2026-07-28.schema.json', import.meta.url), 'utf8')) as ProtocolSchemaDocument;
const schema = await ProtocolSchema.vendored();

const atPointer = (document: unknown, pointer: string): unknown => valueAt(document, pointerSegments(pointer));

const meta = (capabilities: unknown) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

/** Per correction, values `schema.ts` allows that the generated type refused, each checked by a definition the library checks them with. */
const ADMITTED: Record<string, [definition: string, value: unknown][]> = {
  '/$defs/ElicitResult/properties/content/additionalProperties/anyOf/1/type': [['ElicitResult', { action: 'accept', content: { ratio: 0.5, budget: -99.5 } }]],
  '/$defs/JSONValue/anyOf/2/type': [
    ['RequestMetaObject', meta({ experimental: { 'x.example/feature': { ratio: 0.5, off: null, list: [1.5, null] } } })],
    // What the server itself sends: a sampling request's metadata (a tool's ctx.sample).
    ['CreateMessageRequest', { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5, metadata: { temperature: 0.7, seed: null } } }],
  ],
};

describe('the corrections to the vendored schema (SCHEMA_CORRECTIONS)', () => {
  it.each(SCHEMA_CORRECTIONS.map((c) => [c.at, c] as const))(
    '%s: the vendored file still holds the generated type, and the library reads the declared one',
    (at, correction: SchemaCorrection) => {
      expect(atPointer(vendored, at)).toEqual(correction.was);
      expect(atPointer(correctedSchema(vendored), at)).toEqual(correction.is);
      expect(atPointer(vendored, at)).toEqual(correction.was); // the file's document is left as it was read
    },
  );

  it.each(SCHEMA_CORRECTIONS.map((c) => [c.at] as const))('%s: admits the values schema.ts allows, in the precompiled validators', (at) => {
    const cases = ADMITTED[at];
    expect(cases?.length).toBeGreaterThan(0);
    for (const [definition, value] of cases!) expect(schema.check(definition, value)).toEqual([]);
  });

  it('still refuses what neither declares (an object where a form value belongs)', () => {
    expect(schema.check('ElicitResult', { action: 'accept', content: { ratio: { n: 1 } } })).not.toEqual([]);
  });

  it('stops where a correction no longer finds what it corrects, asking for the list to be revised', () => {
    const fixed = structuredClone(vendored) as { $defs: Record<string, { anyOf: { type: unknown }[] }> };
    fixed.$defs.JSONValue!.anyOf[2]!.type = ['string', 'number', 'boolean', 'null'];
    expect(() => correctedSchema(fixed as unknown as ProtocolSchemaDocument)).toThrow(
      'The vendored protocol schema holds ["string","number","boolean","null"] at /$defs/JSONValue/anyOf/2/type, not ["string","integer","boolean"]: revise SCHEMA_CORRECTIONS',
    );
  });
});

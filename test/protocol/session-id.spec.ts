import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { LEGACY_PROTOCOL_VERSIONS } from '../../lib/index.js';
import { issueSessionId, readSessionId } from '../../lib/protocol/session-id.js';

/** A session id of the issued form whose payload is any JSON value. */
const withPayload = (payload: unknown) => `00000000-0000-0000-0000-000000000000.${Buffer.from(JSON.stringify(payload) ?? 'null').toString('base64url')}`;

/** A valid session id of exactly `length` characters, padded by a field the reader ignores. */
function idOfLength(length: number): string {
  for (let pad = 0; pad < length; pad++) {
    const id = withPayload({ v: '2025-11-25', c: {}, pad: 'x'.repeat(pad) });
    if (id.length === length) return id;
  }
  throw new Error(`no session id of ${length} characters`);
}

const VALID = withPayload({ v: '2025-11-25', c: {} });

describe('the session id a legacy initialize issues, read back', () => {
  it.each(LEGACY_PROTOCOL_VERSIONS)('carries %s and the input capabilities, in visible ASCII', (version) => {
    const id = issueSessionId(version, {
      elicitation: { form: {}, url: { x: 1 } },
      sampling: { tools: {}, note: 'yes' },
      roots: { listChanged: true },
      experimental: { x: {} },
    });
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    expect(readSessionId(id)).toEqual({ id: id.split('.')[0], version, capabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} } });
  });

  it('stays readable whatever a client declares: sub-capabilities bounded in number and name length', () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${'s'.repeat(30)}${String(i).padStart(2, '0')}`, { deep: 'x'.repeat(1000) }]));
    const id = issueSessionId('2025-11-25', { elicitation: many, sampling: many, roots: { ...many, ['n'.repeat(33)]: {} }, experimental: many });
    const read = readSessionId(id);
    expect(read?.version).toBe('2025-11-25');
    for (const subs of Object.values(read!.capabilities)) expect(Object.keys(subs as object)).toHaveLength(8);
  });

  it('keeps a sub-capability name of 32 characters and drops one of 33', () => {
    const read = readSessionId(issueSessionId('2025-11-25', { roots: { ['n'.repeat(32)]: {}, ['m'.repeat(33)]: {} } }))!;
    expect(Object.keys(read.capabilities.roots as object)).toEqual(['n'.repeat(32)]);
  });

  it('keeps no capability declared as something other than an object', () => {
    const read = readSessionId(issueSessionId('2025-11-25', { elicitation: [{ form: {} }], sampling: true, roots: 'yes' }))!;
    expect(read.capabilities).toEqual({});
  });

  it('reads an id of 2,048 characters and ignores one of 2,049', () => {
    expect(readSessionId(idOfLength(2048))?.version).toBe('2025-11-25');
    expect(readSessionId(idOfLength(2049))).toBeUndefined();
  });

  it('keeps a __proto__ sub-capability a key, never a prototype', () => {
    const declared = JSON.parse('{"roots":{"__proto__":{"polluted":true}}}') as unknown;
    const read = readSessionId(issueSessionId('2025-11-25', declared))!;
    const roots = read.capabilities.roots as Record<string, unknown>;
    expect(Object.keys(roots)).toEqual(['__proto__']);
    expect((roots as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it.each([
    ['no UUID before the dot', `x.${Buffer.from('{"v":"2025-11-25","c":{}}').toString('base64url')}`],
    ['characters base64url lacks', '00000000-0000-0000-0000-000000000000.eyJ2Ijoi+/=='],
    ['a revision not served', withPayload({ v: '2024-10-07', c: {} })],
    ['a character before the UUID', `x${VALID}`],
    ['no dot between the UUID and the payload', VALID.replace('.', '')],
    ['a character after the payload', `${VALID}=`],
    ['upper-case hex in the UUID', VALID.replace('00000000', 'ABCDEF00')],
  ])('reads nothing from an id with %s', (_case, id) => {
    expect(readSessionId(id)).toBeUndefined();
  });

  it('reads any header value without throwing: nothing, or a served revision and bounded input capabilities', () => {
    const anything = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.jsonValue().map(withPayload),
      fc.record({ v: fc.constantFrom(...LEGACY_PROTOCOL_VERSIONS), c: fc.jsonValue() }).map(withPayload),
    );
    fc.assert(
      fc.property(anything, (header) => {
        const read = readSessionId(header);
        if (read === undefined) return;
        expect(LEGACY_PROTOCOL_VERSIONS).toContain(read.version);
        for (const [capability, subs] of Object.entries(read.capabilities)) {
          expect(['elicitation', 'sampling', 'roots']).toContain(capability);
          expect(Object.keys(subs as object).length).toBeLessThanOrEqual(8);
          for (const [sub, value] of Object.entries(subs as object)) {
            expect(sub.length).toBeLessThanOrEqual(32);
            expect(value).toEqual({});
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});

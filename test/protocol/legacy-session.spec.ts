import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { LEGACY_PROTOCOL_VERSIONS } from '../../lib/index.js';
import { legacySessionId, readLegacySession } from '../../lib/protocol/legacy-session.js';

/** A session id of our form whose payload is any JSON value. */
const withPayload = (payload: unknown) => `00000000-0000-0000-0000-000000000000.${Buffer.from(JSON.stringify(payload) ?? 'null').toString('base64url')}`;

describe('the session id a legacy initialize issues, read back', () => {
  it.each(LEGACY_PROTOCOL_VERSIONS)('carries %s and the input capabilities, in visible ASCII', (version) => {
    const id = legacySessionId(version, { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: { listChanged: true }, experimental: { x: {} } });
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    expect(readLegacySession(id)).toEqual({ version, capabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} } });
  });

  it('reads any header value without throwing: nothing, or a served revision and bounded input capabilities', () => {
    const anything = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.jsonValue().map(withPayload),
      fc.record({ v: fc.constantFrom(...LEGACY_PROTOCOL_VERSIONS), c: fc.jsonValue() }).map(withPayload),
    );
    fc.assert(
      fc.property(anything, (header) => {
        const session = readLegacySession(header);
        if (session === undefined) return;
        expect(LEGACY_PROTOCOL_VERSIONS).toContain(session.version);
        for (const [capability, subs] of Object.entries(session.capabilities)) {
          expect(['elicitation', 'sampling', 'roots']).toContain(capability);
          for (const [sub, value] of Object.entries(subs as object)) {
            expect(['form', 'url', 'tools', 'context']).toContain(sub);
            expect(value).toEqual({});
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});

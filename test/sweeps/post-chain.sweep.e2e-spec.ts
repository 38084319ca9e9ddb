import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService } from '@nestjs/core';

import { CHAIN_GUARDS, META_KEYS, WIRE_CHECKS } from '../../lib/index.js';
import { PostChainGuard } from '../../lib/post-chain.js';
import { mirroredHeaders, post, rejectionOf, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { GOOD_TOKEN, TokenAuth } from '../wire/wire-fixtures.js';

/**
 * The POST-chain sweep: the order is stated once, in code (`WIRE_CHECKS`, `CHAIN_GUARDS`), and this file pins it
 * three ways: the guards bound on the mount's POST handler are exactly `CHAIN_GUARDS`; each stage has a
 * request that only it refuses; and for every pair of stages, a request violating both is refused by the earlier
 * one. A stage added to `CHAIN_GUARDS` without a violation fails `tsc`.
 */

type Stage = (typeof CHAIN_GUARDS)[number];
type ChainRejecter = NonNullable<Stage['rejecter']>;
/** The stages that refuse (era classification only records the era). */
const REJECTING = CHAIN_GUARDS.filter((stage): stage is Extract<Stage, { rejecter: ChainRejecter }> => stage.rejecter !== null);

const MAX_BODY_BYTES = 2048;

/** A request being built: header values by lower-cased name (`null` drops one, an array repeats it), and a body. */
interface Draft {
  headers: Record<string, string | string[] | null>;
  body: Record<string, any>;
  padding: number;
}

/**
 * One violation per stage, each a mutation of a conforming request chosen so that any two compose: applying the
 * later stage's violation and then the earlier one's leaves both in place.
 */
const VIOLATIONS = {
  'origin-check': (d) => void (d.headers.origin = 'http://evil.example.com'),
  'singleton-header-check': (d) => void (d.headers['mcp-name'] = ['x', 'x']),
  'auth-check': (d) => void (d.headers.authorization = null),
  'parse-step': (d) => void (d.padding = MAX_BODY_BYTES),
  'message-validation': (d) => void (d.body.jsonrpc = '1.0'),
  'protocol-fields': (d) => void delete d.body.params._meta[META_KEYS.clientCapabilities],
  'header-binding-check': (d) => void (d.headers['mcp-method'] = 'tools/list'),
  'version-check': (d) => {
    d.body.params._meta[META_KEYS.protocolVersion] = 'v999.0.0';
    d.headers['mcp-protocol-version'] = 'v999.0.0';
  },
} satisfies Record<ChainRejecter, (draft: Draft) => void>;

function draft(): Draft {
  const body = rpc('server/discover');
  return { headers: { ...mirroredHeaders(body), authorization: `Bearer ${GOOD_TOKEN}` }, body, padding: 0 };
}

describe('POST chain order', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ options: { auth: new TokenAuth(), maxBodyBytes: MAX_BODY_BYTES } });
  });
  afterAll(() => t.close());

  function send(d: Draft) {
    return rejectionOf(() => post(t.server, JSON.stringify(d.body) + ' '.repeat(d.padding), d.headers));
  }

  it("binds the POST chain (PostChainGuard, running CHAIN_GUARDS in order) on the mount's POST handler, and no guard on the fallthrough", () => {
    const mounts = t.app
      .get(DiscoveryService)
      .getControllers()
      .map((wrapper) => wrapper.metatype as { prototype: Record<string, unknown> } | null)
      .filter((type) => type && Reflect.getMetadata(PATH_METADATA, type) === 'mcp');
    expect(mounts).toHaveLength(1);
    const prototype = mounts[0]!.prototype;
    expect(Reflect.getMetadata(GUARDS_METADATA, prototype.post as object)).toEqual([PostChainGuard]);
    const stages = (t.app.get(PostChainGuard, { strict: false }) as unknown as { stages: object[] }).stages;
    expect(stages.map((stage) => stage.constructor)).toEqual([...CHAIN_GUARDS]);
    const fallthroughs = Object.getOwnPropertyNames(prototype).filter((name) => name !== 'constructor' && name !== 'post');
    expect(fallthroughs.sort()).toEqual(['delete', 'get', 'options', 'patch', 'put']);
    for (const name of fallthroughs) expect(Reflect.getMetadata(GUARDS_METADATA, prototype[name] as object)).toBeUndefined();
  });

  it('states the order once: the wire checks first (origin, singleton headers, auth), then the body-bound stages', () => {
    expect(CHAIN_GUARDS.slice(0, WIRE_CHECKS.length)).toEqual([...WIRE_CHECKS]);
    expect(CHAIN_GUARDS.map((stage) => stage.rejecter)).toEqual([
      'origin-check',
      'singleton-header-check',
      'auth-check',
      'parse-step',
      null,
      'message-validation',
      'protocol-fields',
      'header-binding-check',
      'version-check',
    ]);
  });

  it('serves the conforming request every violation starts from', async () => {
    const res = await post(t.server, draft().body, draft().headers);
    expect(res.status).toBe(200);
  });

  it('era classification refuses nothing: a legacy initialize passes the whole chain', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
    const res = await post(t.server, initialize, { 'mcp-protocol-version': null, 'mcp-method': null, authorization: `Bearer ${GOOD_TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.body.result.protocolVersion).toBe('2025-11-25');
  });

  describe.each(REJECTING.map((stage) => [stage.rejecter, stage] as const))('%s', (rejecter) => {
    it('refuses the request that violates only this stage', async () => {
      const d = draft();
      VIOLATIONS[rejecter](d);
      expect((await send(d))?.rejecter).toBe(rejecter);
    });
  });

  const pairs = REJECTING.flatMap((earlier, i) => REJECTING.slice(i + 1).map((later) => [earlier.rejecter, later.rejecter] as const));
  it.each(pairs)('refuses a request violating both %s and %s with the earlier one', async (earlier, later) => {
    const d = draft();
    VIOLATIONS[later](d);
    VIOLATIONS[earlier](d);
    expect((await send(d))?.rejecter).toBe(earlier);
  });
});
